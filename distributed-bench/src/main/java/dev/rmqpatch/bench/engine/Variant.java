package dev.rmqpatch.bench.engine;

import dev.rmqpatch.cluster.Jdk8Home;
import dev.rmqpatch.cluster.LocalCluster;
import dev.rmqpatch.patches.Release;
import dev.rmqpatch.patches.build.LibPatch;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A broker to compare, named as in the article: {@code 4.9.0} (stock jars, stock parameters), {@code 4.9.0-tuned}
 * (stock jars, the send-path parameters 4.9.1 made default), {@code 4.9.0-patched} (patched jars, tuned parameters),
 * and {@code 4.9.1} (stock 4.9.1, its defaults). Any {@code <version>[-tuned]} works the same way, except
 * {@code 4.9.8} and {@code 5.3.3}, which run only with their own defaults (see {@link #OWN_DEFAULTS_ONLY}).
 * {@code <release>-patched} exists for the releases the patches declare themselves for ({@link Release}): 4.9.0's
 * is the patched build with the tuned parameters; a later release's ({@link #patchedReleases}, e.g.
 * {@code 4.9.7-patched}) is that release's stock distribution with its lib/ rewritten by patch-lib
 * (scripts/patched-dist.sh) and the same conf as its stock variant, the release's own defaults (4.9.1+ defaults
 * already include the send-path parameters).
 * {@code 4.9.0-patched-without-P7} (or {@code -without-P7+P8}) is the patched broker started with those patches
 * switched off ({@code -Drmqpatch.disable}): what one patch buys is all patches against all but that one.
 *
 * <p>A suffix {@code @8} runs the variant's servers on JDK 8 (the one {@code scripts/jdk8.sh} provides, or
 * {@code -Drmqpatch.jdk8.home}); {@code @N} with N the harness's own JDK feature version runs them on the harness's JDK.
 * Without a suffix they run on the JAVA_HOME (else the java on PATH) the harness inherited. {@code 4.9.0-tuned@8} and
 * {@code 4.9.0-patched@8} compare the two on JDK 8. A final {@code #N} names another copy of the same variant (same
 * distribution, conf and JDK, its own brokers): {@code --variants 4.9.0-tuned,4.9.0-tuned#2} is an A/A comparison, whose
 * interval should contain 1.0.
 */
public final class Variant {
    private static final Pattern NAME =
        Pattern.compile("(\\d+\\.\\d+\\.\\d+)(-tuned|-patched(?:-with-([A-Z][0-9]+(?:\\+[A-Z][0-9]+)*))?"
            + "(?:-without-([A-Z][0-9]+(?:\\+[A-Z][0-9]+)*))?)?(?:@([0-9]+))?(?:#[0-9]+)?");

    /**
     * Versions that run only with their own defaults (no -tuned), and why: 4.9.8's defaults already are the send-path
     * parameters broker-tuned.conf sets (4.9.1 made them default); 5.3.3 is a classic 5.x broker. Their stock
     * distributions come from scripts/stock-lib.sh (see broker-patches' pom); their conf is the distribution's
     * conf/broker.conf, like 4.9.1's. Whether a -patched variant exists is {@link Release}'s to say, not this map's.
     */
    private static final Map<String, String> OWN_DEFAULTS_ONLY = Map.of(
        "4.9.8", "its own defaults (they include the send-path parameters 4.9.1 made default)",
        "5.3.3", "its own defaults, as a classic broker (no proxy, no controller)");

    /** The release the patches were written for: its -patched variant is the patched build with tuned parameters. */
    private static final String PATCH_TARGET = Release.V4_9_0.version();

    /**
     * The later releases with a {@code <release>-patched} variant (4.9.3, 4.9.4, 4.9.7, 4.9.8): every {@link Release}
     * after 4.9.0, oldest first. Their patched distribution is made by scripts/patched-dist.sh (patch-lib on the stock
     * distribution's lib/).
     */
    public static List<String> patchedReleases() {
        List<String> out = new ArrayList<>();
        for (Release r : Release.values()) {
            if (!r.version().equals(PATCH_TARGET)) {
                out.add(r.version());
            }
        }
        return List.copyOf(out);
    }

    private final String name;
    private final String version;
    private final boolean patched;
    private final boolean tuned;
    private final List<String> enabled;
    private final List<String> disabled;
    private final Integer jdk;

    private Variant(String name, String version, boolean tuned, boolean patched, List<String> enabled, List<String> disabled,
                    Integer jdk) {
        this.name = name;
        this.version = version;
        this.tuned = tuned;
        this.patched = patched;
        this.enabled = enabled;
        this.disabled = disabled;
        this.jdk = jdk;
    }

    public static Variant parse(String name) {
        Matcher m = NAME.matcher(name.trim());
        if (!m.matches()) {
            throw new IllegalArgumentException("variant '" + name + "' is not <version>, <version>-tuned, <version>-patched"
                + " or <version>-patched[-with-ID[+ID...]][-without-ID[+ID...]], each optionally followed by @<JDK> and by #<N> for another copy of the same"
                + " (e.g. 4.9.0-tuned, 4.9.0-patched-without-P7, 4.9.0-patched@8, 4.9.0-tuned#2)");
        }
        String version = m.group(1);
        String suffix = m.group(2);
        boolean patched = suffix != null && suffix.startsWith("-patched");
        if (patched && Release.of(version) == null) {
            throw new IllegalArgumentException("variant '" + name + "': no patched " + version + "; the patches declare"
                + " themselves for " + Release.supported() + " only (" + PATCH_TARGET + "-patched, and "
                + String.join(", ", patchedReleases()) + " through patch-lib), so -patched works with those; say "
                + version + " for the stock one");
        }
        String own = OWN_DEFAULTS_ONLY.get(version);
        if (own != null && suffix != null && !patched) {
            throw new IllegalArgumentException("variant '" + name + "': " + version + " runs only with " + own + "; say "
                + version + (Release.of(version) != null ? " or " + version + "-patched" : "") + " (optionally @<JDK>, #<N>)");
        }
        // 4.9.0-patched runs with the tuned parameters (the article's comparison); a later release's patched broker
        // with that release's own defaults, as its stock variant.
        boolean tuned = "-tuned".equals(suffix) || (patched && version.equals(PATCH_TARGET));
        List<String> enabled = m.group(3) == null ? List.of() : List.of(m.group(3).split("\\+"));
        List<String> disabled = m.group(4) == null ? List.of() : List.of(m.group(4).split("\\+"));
        Integer jdk = JdkSuffix.parse("variant '" + name + "'", m.group(5));
        return new Variant(name.trim(), version, tuned, patched, enabled, disabled, jdk);
    }

    /** The JDK feature version the variant's servers are to run on, or null: the inherited JAVA_HOME. */
    public Integer jdk() {
        return jdk;
    }

    /**
     * The JDK home the variant's servers run on (null: inherited); for {@code @8}, found once per JVM by
     * {@link Jdk8Home} (which fetches it on first use).
     */
    public Path javaHome() throws LocalCluster.ClusterException {
        try {
            return JdkSuffix.home(jdk);
        } catch (Jdk8Home.Unavailable e) {
            throw new LocalCluster.ClusterException(name + " asks for JDK 8, and none can be had: " + e.getMessage(), e);
        }
    }

    /**
     * Before anything starts: the distribution is there (else the message says how to build it) and the JDK the variant
     * asks for can be had.
     */
    public void check(Path distDir) throws LocalCluster.ClusterException {
        try {
            LocalCluster.checkDistribution(dist(distDir), confName());
        } catch (LocalCluster.ClusterException e) {
            throw new LocalCluster.ClusterException(name + ": " + e.getMessage().replace("scripts/build.sh", buildHint()), e);
        }
        javaHome();
    }

    /**
     * What a run starts for this variant, before the mode adds heap, topology and folders: its distribution, conf,
     * conf overrides (as {@link ComparisonMetadata#overrides} chose them), patch switches and JDK.
     */
    public LocalCluster.Spec clusterSpec(Path distDir, Map<String, String> confOverrides) throws LocalCluster.ClusterException {
        LocalCluster.Spec cs = new LocalCluster.Spec();
        cs.dist = dist(distDir);
        cs.confName = confName();
        cs.overrides.putAll(confOverrides);
        cs.brokerJvmOptions.addAll(jvmOptions());
        cs.javaHome = javaHome();
        return cs;
    }

    /** Patch ids this variant switches off at broker start (empty for all others). */
    public List<String> disabledPatches() {
        return disabled;
    }

    /** Patch ids this variant turns on that ship off ({@code -with-P14}: {@code -Drmqpatch.enable}). */
    public List<String> enabledPatches() {
        return enabled;
    }

    /**
     * JVM options of this variant's brokers and name server: the switches for the patches it turns on that ship off and
     * for its disabled patches, if any (an id that cannot be enabled stops the broker at start, naming the ones that can).
     */
    public List<String> jvmOptions() {
        List<String> options = new java.util.ArrayList<>();
        if (!enabled.isEmpty()) {
            options.add("-Drmqpatch.enable=" + String.join(",", enabled));
        }
        if (!disabled.isEmpty()) {
            options.add("-Drmqpatch.disable=" + String.join(",", disabled));
        }
        return List.copyOf(options);
    }

    public String name() {
        return name;
    }

    public String version() {
        return version;
    }

    public boolean patched() {
        return patched;
    }

    /** Folder name of the distribution under broker-patches/target. */
    public String distName() {
        return "rocketmq-" + version + (patched ? "-patched" : "-stock");
    }

    public Path dist(Path distDir) {
        return distDir.resolve(distName());
    }

    /** Where a run's folder keeps the patch-lib report of a later release's patched distribution. */
    public static final String RUN_REPORT = "rmqpatch-report.txt";

    /**
     * Copies the report patch-lib wrote into the distribution's lib/ (a later release's patched variant; what became of
     * every patch there) into {@code workDir} as {@value #RUN_REPORT}, so a run's output says what the broker it measured
     * carried. Returns the copy, or null when the distribution has no such report (stock, 4.9.0-patched).
     */
    public Path copyPatchLibReport(Path distDir, Path workDir) throws java.io.IOException {
        Path report = dist(distDir).resolve("lib").resolve(LibPatch.REPORT_DIR).resolve(LibPatch.REPORT_TEXT);
        if (!patched || !java.nio.file.Files.isRegularFile(report)) {
            return null;
        }
        java.nio.file.Files.createDirectories(workDir);
        return java.nio.file.Files.copy(report, workDir.resolve(RUN_REPORT), java.nio.file.StandardCopyOption.REPLACE_EXISTING);
    }

    // The "tuned" rule, written here only: the conf file (confName) and the settings appended to it (overrides).
    // scripts/compare.sh and the efficiency mode read it in this JVM. scripts/deploy.sh and run-distributed.sh, which
    // are bash, ask this class through main() below, on the control host: that is where deploy/lib/confs.sh writes
    // every host's broker.conf (the broker hosts get the distribution, not this jar, and only their core count is read
    // from them), and the control host always has this jar built (deploy/lib/artifacts.sh refuses to push without it,
    // since it ships it) with a JDK 17 to run it. A data file both read would have to be packaged into the jar (a build
    // change) or found beside it (the hosts' copies have no source tree); generating the bash's values at build time
    // would need a build step too. Asking the jar keeps the rule in compiled, unit-tested code; the bash takes only the
    // lines it validates (conf NAME, set KEY=VALUE) into broker.conf, never into a command line.

    /**
     * 4.9.0-patched runs with tuned parameters (the article's baseline is the tuned 4.9.0); a later release's patched
     * variant with its own defaults, as its stock variant.
     */
    public String confName() {
        return tuned ? "broker-tuned.conf" : "broker.conf";
    }

    /**
     * Settings appended to the conf. broker-tuned.conf says sendMessageThreadPoolNums=4; 4.9.1 uses min(cores, 4),
     * and on a 2-core machine 4 spinning send threads would be a different configuration from what 4.9.1 runs.
     */
    public Map<String, String> overrides(int cpus) {
        Map<String, String> o = new LinkedHashMap<>();
        if (tuned) {
            o.put("sendMessageThreadPoolNums", Integer.toString(Math.min(cpus, 4)));
        }
        return o;
    }

    /**
     * For the deploy scripts (deploy/lib/confs.sh), which cannot call Java: what VARIANT's brokers run with, one line
     * each: {@code conf NAME} (confName), then, given the host's CORES, {@code set KEY=VALUE} per override.
     * Usage: {@code java -cp distributed-bench.jar dev.rmqpatch.bench.engine.Variant VARIANT [CORES]}; exit 2 on bad
     * arguments.
     */
    public static void main(String[] args) {
        if (args.length < 1 || args.length > 2 || (args.length == 2 && !args[1].matches("[1-9][0-9]{0,5}"))) {
            System.err.println("usage: Variant VARIANT [CORES]  (CORES: the host's number of cores, 1 or more)");
            System.exit(2);
        }
        Variant v;
        try {
            v = parse(args[0]);
        } catch (IllegalArgumentException e) {
            System.err.println(e.getMessage());
            System.exit(2);
            return;
        }
        System.out.println("conf " + v.confName());
        if (args.length == 2) {
            v.overrides(Integer.parseInt(args[1])).forEach((k, value) -> System.out.println("set " + k + "=" + value));
        }
    }

    /**
     * How to build the distribution when it is missing (scripts/build.sh arguments; for a later release's patched
     * variant build.sh makes the stock distribution first when it is missing, then patches its lib/).
     */
    public String buildHint() {
        return "scripts/build.sh --rocketmq-version " + version + (patched ? "" : " --stock-only");
    }

    @Override
    public String toString() {
        return name;
    }
}
