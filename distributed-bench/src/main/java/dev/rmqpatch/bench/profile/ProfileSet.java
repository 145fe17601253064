package dev.rmqpatch.bench.profile;

import dev.rmqpatch.bench.report.Table;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The profiles of one comparison (of its brokers, slaves or clients: one kind of JVM a set): per variant the stacks of
 * all its profiled windows merged, then one flame graph per variant, the "where the broker's CPU goes" table (areas side by side, and the baseline's top self-time
 * methods with every variant's share), and the views that go into results.json.
 */
public final class ProfileSet {
    public static final int TOP_METHODS = 15;

    private final String jvm;
    private final String baseline;
    private final SamplingEvent event;
    private final String how;
    private final Map<String, CollapsedStacks> stacks = new LinkedHashMap<>();
    private final Map<String, Integer> windows = new LinkedHashMap<>();
    private final Map<String, ProfileSummary> summaries = new LinkedHashMap<>();
    private final Map<String, VariantProfile> views = new LinkedHashMap<>();

    /**
     * @param jvm what JVM of each variant was profiled, as the table and flame graph titles name it: broker, slave, client
     * @param variants in table order
     * @param how which windows were profiled, in words (whether they are the measured ones, and that all variants were
     *            profiled alike)
     */
    public ProfileSet(String jvm, List<String> variants, String baseline, SamplingEvent event, String how) {
        this.jvm = jvm;
        this.baseline = baseline;
        this.event = event;
        this.how = how;
        for (String v : variants) {
            stacks.put(v, new CollapsedStacks());
            windows.put(v, 0);
        }
    }

    public void add(String variant, CollapsedStacks profile, int profiledWindows) {
        stacks.get(variant).addAll(profile);
        windows.merge(variant, profiledWindows, Integer::sum);
    }

    /** Writes flame-&lt;variant&gt;.html and profile/&lt;variant&gt;.collapsed into {@code outDir} for every variant with samples. */
    public void write(Path outDir) throws IOException {
        for (Map.Entry<String, CollapsedStacks> e : stacks.entrySet()) {
            String variant = e.getKey();
            CollapsedStacks s = e.getValue();
            ProfileSummary summary = ProfileSummary.of(s);
            summaries.put(variant, summary);
            VariantProfile view = new VariantProfile();
            view.samples = s.total();
            view.windows = windows.get(variant);
            view.event = event.name();
            if (s.total() > 0) {
                String html = "flame-" + variant + ".html";
                String collapsed = "profile/" + variant + ".collapsed";
                s.write(outDir.resolve(collapsed));
                FlameGraphHtml.write(s, jvm + " CPU, " + variant + " (" + event.name() + ", " + view.windows + " window(s))", outDir.resolve(html));
                view.flameGraph = html;
                view.collapsedStacks = collapsed;
                for (CpuArea a : CpuArea.values()) {
                    view.areas.put(a.label(), round(summary.areaShare(a)));
                }
                for (String m : summary.topSelf(TOP_METHODS)) {
                    view.topSelf.add(new MethodShare(m, round(summary.selfShare(m))));
                }
            }
            views.put(variant, view);
        }
    }

    public Map<String, VariantProfile> variantViews() {
        return views;
    }

    /** The top-level results.json view: event, how, and the baseline's top methods with every variant's share. */
    public Comparison comparison() {
        Comparison c = new Comparison();
        c.event = event.name();
        c.eventReason = event.reason();
        c.interval = ProfiledJvm.INTERVAL;
        c.profiledWindows = how;
        c.baseline = baseline;
        for (CpuArea a : CpuArea.values()) {
            c.areas.add(a.label());
        }
        ProfileSummary base = summaries.get(baseline);
        if (base != null) {
            for (String m : base.topSelf(TOP_METHODS)) {
                Map<String, Double> shares = new LinkedHashMap<>();
                summaries.forEach((v, s) -> shares.put(v, round(s.selfShare(m))));
                c.baselineTopSelf.add(new MethodShares(m, shares));
            }
        }
        return c;
    }

    /** The text section for table.txt and the console. */
    public String table() {
        StringBuilder s = new StringBuilder();
        s.append(String.format(Locale.ROOT, "where the %s's CPU goes (share of profiler samples; %s sampling every %s of CPU; %s)%n",
            jvm, event.name(), ProfiledJvm.INTERVAL, how));
        List<String[]> rows = new ArrayList<>();
        List<String> names = new ArrayList<>(summaries.keySet());
        String[] header = new String[names.size() + 1];
        header[0] = "area";
        for (int i = 0; i < names.size(); i++) {
            header[i + 1] = names.get(i);
        }
        rows.add(header);
        for (CpuArea a : CpuArea.values()) {
            String[] row = new String[names.size() + 1];
            row[0] = a.label();
            for (int i = 0; i < names.size(); i++) {
                row[i + 1] = pct(summaries.get(names.get(i)), summaries.get(names.get(i)).areaShare(a));
            }
            rows.add(row);
        }
        String[] total = new String[names.size() + 1];
        String[] samples = new String[names.size() + 1];
        total[0] = "total";
        samples[0] = "samples";
        for (int i = 0; i < names.size(); i++) {
            ProfileSummary sum = summaries.get(names.get(i));
            double t = 0;
            for (CpuArea a : CpuArea.values()) {
                t += sum.areaShare(a);
            }
            total[i + 1] = pct(sum, t);
            samples[i + 1] = String.format(Locale.ROOT, "%,d", sum.samples());
        }
        rows.add(total);
        rows.add(samples);
        s.append(Table.render(rows));
        List<String> links = new ArrayList<>();
        views.forEach((v, view) -> links.add(v + ": " + (view.flameGraph == null ? "no samples" : view.flameGraph)));
        s.append("flame graphs (open in a browser): ").append(String.join(", ", links)).append('\n');
        ProfileSummary base = summaries.get(baseline);
        if (base != null && base.samples() > 0) {
            s.append(String.format(Locale.ROOT, "%ntop %d self-time methods of %s (share of each variant's samples)%n", TOP_METHODS, baseline));
            List<String[]> top = new ArrayList<>();
            String[] h = header.clone();
            h[0] = "method";
            top.add(h);
            for (String m : base.topSelf(TOP_METHODS)) {
                String[] row = new String[names.size() + 1];
                row[0] = m;
                for (int i = 0; i < names.size(); i++) {
                    row[i + 1] = pct(summaries.get(names.get(i)), summaries.get(names.get(i)).selfShare(m));
                }
                top.add(row);
            }
            s.append(Table.render(top));
        }
        return s.toString();
    }

    private static String pct(ProfileSummary s, double share) {
        return s.samples() == 0 ? "-" : String.format(Locale.ROOT, "%.1f%%", share * 100);
    }

    private static double round(double share) {
        return Math.round(share * 100_000) / 100_000.0;
    }

    /** results.json: one variant's profile. */
    public static final class VariantProfile {
        public String flameGraph;
        public String collapsedStacks;
        public String event;
        public int windows;
        public long samples;
        /** Share of samples per area, 0..1, adding up to 1. */
        public Map<String, Double> areas = new LinkedHashMap<>();
        /** This variant's own top self-time methods. */
        public List<MethodShare> topSelf = new ArrayList<>();
    }

    /** A method and its share of a profile's samples. */
    public record MethodShare(String method, double share) {
    }

    /** A method and its share in every variant's profile. */
    public record MethodShares(String method, Map<String, Double> shares) {
    }

    /** results.json: how the profiles were taken and the baseline's top methods across variants. */
    public static final class Comparison {
        public String event;
        public String eventReason;
        public String interval;
        public String profiledWindows;
        public String baseline;
        public List<String> areas = new ArrayList<>();
        public List<MethodShares> baselineTopSelf = new ArrayList<>();
    }
}
