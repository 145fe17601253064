package dev.rmqpatch.patches.build;

import java.util.ArrayList;
import java.util.List;

import dev.rmqpatch.patches.Patch;
import dev.rmqpatch.patches.PatchTargets;
import dev.rmqpatch.patches.Release;
import dev.rmqpatch.patches.ReleaseFit;

/**
 * docs/releases.md's table of what each patch declares per release ({@link Patch#on(Release)}), with every reason
 * (and every variant's account of itself) once, generated from the patch classes (the region between {@value #BEGIN}
 * and {@value #END}), so the page cannot drift from the declarations.
 */
final class ReleasesDoc {

    static final String BEGIN = "<!-- declarations:begin -->";
    static final String END = "<!-- declarations:end -->";

    private ReleasesDoc() {
    }

    /** The region, markers included: one row per patch, a column per release, then the reasons. */
    static String table(List<Patch> patches) {
        StringBuilder sb = new StringBuilder();
        sb.append(BEGIN).append('\n');
        sb.append("<!-- Generated from the patch classes' on(Release) by ReleasesDoc; ReleasesDocTest checks it and says how to "
            + "rewrite it. -->\n");
        List<String> header = new ArrayList<String>();
        header.add("patch");
        for (Release r : Release.values()) {
            header.add(r.version());
        }
        PatchesDoc.row(sb, header.toArray(new String[0]));
        sb.append('|');
        for (int i = 0; i < header.size(); i++) {
            sb.append("---|");
        }
        sb.append('\n');
        for (Patch p : patches) {
            List<String> cells = new ArrayList<String>();
            cells.add(PatchTargets.label(p));
            for (Release r : Release.values()) {
                ReleaseFit fit = p.on(r);
                cells.add(fit.kind() == ReleaseFit.Kind.APPLIES ? "applies" : fit.kind() == ReleaseFit.Kind.VARIANT
                    ? "**variant**" : "**" + fit.kind().text() + "**");
            }
            PatchesDoc.row(sb, cells.toArray(new String[0]));
        }
        sb.append("\nThe reasons, as each patch declares them:\n\n");
        for (Patch p : patches) {
            List<Release> same = new ArrayList<Release>();
            ReleaseFit last = null;
            for (Release r : Release.values()) {
                ReleaseFit fit = p.on(r);
                if (last != null && !(fit.kind() == last.kind() && fit.reason().equals(last.reason()))) {
                    reason(sb, p, same, last);
                    same.clear();
                }
                same.add(r);
                last = fit;
            }
            reason(sb, p, same, last);
        }
        return sb.append(END).toString();
    }

    private static void reason(StringBuilder sb, Patch p, List<Release> releases, ReleaseFit fit) {
        if (fit == null || fit.kind() == ReleaseFit.Kind.APPLIES) {
            return;
        }
        StringBuilder on = new StringBuilder();
        for (Release r : releases) {
            on.append(on.length() == 0 ? "" : ", ").append(r.version());
        }
        sb.append("- ").append(PatchTargets.label(p)).append(", ").append(fit.kind().text()).append(" on ").append(on)
            .append(": ").append(fit.reason()).append('\n');
    }

    /** {@code doc} with the region between the markers (markers included) replaced by {@link #table}. */
    static String withTable(String doc, List<Patch> patches) {
        int begin = doc.indexOf(BEGIN);
        int end = doc.indexOf(END);
        if (begin < 0 || end < begin || doc.indexOf(BEGIN, begin + 1) >= 0) {
            throw new IllegalArgumentException("docs/releases.md needs one " + BEGIN + " followed by one " + END);
        }
        return doc.substring(0, begin) + table(patches) + doc.substring(end + END.length());
    }
}
