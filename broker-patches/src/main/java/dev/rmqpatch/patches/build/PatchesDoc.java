package dev.rmqpatch.patches.build;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import dev.rmqpatch.patches.Patch;
import dev.rmqpatch.patches.PatchTargets;
import dev.rmqpatch.patches.Release;
import dev.rmqpatch.patches.ReleaseFit;
import dev.rmqpatch.patches.SecurityHole;
import dev.rmqpatch.patches.transform.MethodEdit;

/**
 * Renders what the docs say about the patches from the patch classes themselves, so neither can drift from them:
 * PATCHES.md of the patched distribution, and the patch table of README.md (the region between
 * {@value #README_BEGIN} and {@value #README_END}).
 */
final class PatchesDoc {

    static final String README_BEGIN = "<!-- patches:begin -->";
    static final String README_END = "<!-- patches:end -->";
    static final String SECURITY_BEGIN = "<!-- security:begin -->";
    static final String SECURITY_END = "<!-- security:end -->";

    private PatchesDoc() {
    }

    /** README's patch table, markers included: one short row per patch. */
    static String readmeTable(List<Patch> patches) {
        StringBuilder sb = new StringBuilder();
        sb.append(README_BEGIN).append('\n');
        sb.append("<!-- Generated from the patch classes (broker-patches/src/main/java/dev/rmqpatch/patches/*Patch.java) by "
            + "PatchesDoc; ReadmePatchTableTest checks it and says how to rewrite it. -->\n");
        sb.append("Each id is also the patch's switch: `-Drmqpatch.disable=P3,S2` turns those off at start; the name is how\n")
            .append("the jars' manifests, `rmqpatch-info` and the start-up log list it. A patch marked *off by default* is in\n")
            .append("the jars but runs only when `-Drmqpatch.enable=ID` names it. The release columns say what\n")
            .append("`scripts/patch-lib.sh` does with the patch on that release's lib/: **yes** applied, **variant** applied\n")
            .append("as that release's variant, *upstream* left out because the release already does it, *not yet* left out\n")
            .append("until its variant for that release is written (each with its reason in docs/releases.md).\n\n");
        List<String> header = new ArrayList<String>(Arrays.asList("id", "name", "target (stock 4.9.0)", "replaced by", "what it buys"));
        for (Release r : laterReleases()) {
            header.add(r.version());
        }
        row(sb, header.toArray(new String[0]));
        rule(sb, header.size());
        for (Patch p : patches) {
            List<String> cells = new ArrayList<String>(Arrays.asList(p.id(), "`" + p.name() + "`", targets(p), replacements(p), buys(p)));
            for (Release r : laterReleases()) {
                cells.add(releaseCell(p.on(r)));
            }
            row(sb, cells.toArray(new String[0]));
        }
        return sb.append(README_END).toString();
    }

    /** {@code readme} with the region between the markers (markers included) replaced by {@link #readmeTable}. */
    static String withReadmeTable(String readme, List<Patch> patches) {
        return withRegion(readme, README_BEGIN, README_END, readmeTable(patches), "the patch table");
    }

    /** {@code readme} with the security region (markers included) replaced by {@link #securityTable}. */
    static String withSecurityTable(String readme, List<Patch> patches) {
        return withRegion(readme, SECURITY_BEGIN, SECURITY_END, securityTable(patches), "the security table");
    }

    private static String withRegion(String readme, String beginMarker, String endMarker, String table, String what) {
        int begin = readme.indexOf(beginMarker);
        int end = readme.indexOf(endMarker);
        if (begin < 0 || end < begin || readme.indexOf(beginMarker, begin + 1) >= 0) {
            throw new IllegalArgumentException("README.md needs one " + beginMarker + " followed by one " + endMarker
                + " around " + what);
        }
        return readme.substring(0, begin) + table + readme.substring(end + endMarker.length());
    }

    /**
     * README's security table, markers included: one row per hole ({@link SecurityHole}), a column per release
     * ({@link Release}), each cell from the hole's upstream fix and its patches' declarations for that release.
     */
    static String securityTable(List<Patch> patches) {
        Map<String, Patch> byId = new LinkedHashMap<String, Patch>();
        for (Patch p : patches) {
            byId.put(p.id(), p);
        }
        StringBuilder sb = new StringBuilder();
        sb.append(SECURITY_BEGIN).append('\n');
        sb.append("<!-- Generated from SecurityHole and the patches' on(Release) by PatchesDoc; ReadmePatchTableTest checks "
            + "it and says how to rewrite it. -->\n");
        sb.append("Per release: **closed** (ids): open on that release's stock jars and closed by those patches in\n")
            .append("`scripts/patch-lib.sh`'s lib/ (and by the agent); *fixed upstream*: that release's stock jars close it;\n")
            .append("**open**: open on stock and on patched, until the named patch's variant for that release is written.\n\n");
        List<String> header = new ArrayList<String>(Arrays.asList("hole", "what an attacker who reaches the port gets"));
        for (Release r : Release.values()) {
            header.add(r.version());
        }
        row(sb, header.toArray(new String[0]));
        rule(sb, header.size());
        for (SecurityHole h : SecurityHole.values()) {
            List<String> cells = new ArrayList<String>(Arrays.asList(h.holeName(), h.what()));
            for (Release r : Release.values()) {
                cells.add(securityCell(h, r, byId));
            }
            row(sb, cells.toArray(new String[0]));
        }
        return sb.append(SECURITY_END).toString();
    }

    /** "**closed** (S1, S2)", "*fixed upstream*" or "**open** (S6 not yet)". */
    static String securityCell(SecurityHole hole, Release release, Map<String, Patch> byId) {
        if (hole.fixedUpstreamOn(release)) {
            return "*fixed upstream*";
        }
        List<String> closing = new ArrayList<String>();
        List<String> missing = new ArrayList<String>();
        for (String id : hole.closedBy()) {
            Patch p = byId.get(id);
            if (p == null) {
                throw new IllegalArgumentException(hole + " names " + id + ", which is not a patch");
            }
            ReleaseFit fit = p.on(release);
            if (fit.applies()) {
                closing.add(id);
            } else if (fit.kind() == ReleaseFit.Kind.NEEDS_VARIANT) {
                missing.add(id);
            }
        }
        if (!missing.isEmpty()) {
            return "**open** (" + String.join(", ", missing) + " not yet)";
        }
        if (closing.isEmpty()) {
            return "**open** (no patch)";
        }
        return "**closed** (" + String.join(", ", closing) + ")";
    }

    /** The releases after 4.9.0 the patches declare themselves for: one column each. */
    static List<Release> laterReleases() {
        List<Release> later = new ArrayList<Release>();
        for (Release r : Release.values()) {
            if (r != Release.V4_9_0) {
                later.add(r);
            }
        }
        return later;
    }

    /** A release column's cell: "**yes**", "**variant**", "*upstream*" or "*not yet*". */
    static String releaseCell(ReleaseFit fit) {
        switch (fit.kind()) {
            case APPLIES:
                return "**yes**";
            case VARIANT:
                return "**variant**";
            case UPSTREAM:
                return "*upstream*";
            default:
                return "*not yet*";
        }
    }

    /** The table's "what it buys" cell: the patch's phrase, and for a patch that ships off, how to turn it on. */
    private static String buys(Patch p) {
        return p.onByDefault() ? p.buys() : p.buys() + "; **off by default** (`-Drmqpatch.enable=" + p.id() + "`)";
    }

    /** "`CommitLog.appendData` (rocketmq-store)": the methods a patch edits, grouped by jar. */
    private static String targets(Patch p) {
        Map<String, Set<String>> byJar = new LinkedHashMap<String, Set<String>>();
        for (MethodEdit edit : p.edits()) {
            String jar = PatchTargets.jarOf(edit.target().owner);
            if (!byJar.containsKey(jar)) {
                byJar.put(jar, new LinkedHashSet<String>());
            }
            byJar.get(jar).add("`" + edit.target().shortName() + "`");
        }
        List<String> parts = new ArrayList<String>();
        for (Map.Entry<String, Set<String>> e : byJar.entrySet()) {
            parts.add(String.join(", ", e.getValue()) + " (" + e.getKey() + ")");
        }
        return String.join("; ", parts);
    }

    private static String replacements(Patch p) {
        Set<String> briefs = new LinkedHashSet<String>();
        for (MethodEdit edit : p.edits()) {
            briefs.add(edit.brief());
        }
        return String.join("; ", briefs);
    }

    /** The line under a Markdown table's header: "|---|---|". */
    private static void rule(StringBuilder sb, int columns) {
        sb.append('|');
        for (int i = 0; i < columns; i++) {
            sb.append("---|");
        }
        sb.append('\n');
    }

    /** One Markdown table row; a '|' inside a cell is escaped so it cannot split the cell. */
    static void row(StringBuilder sb, String... cells) {
        sb.append('|');
        for (String c : cells) {
            sb.append(' ').append(c.replace("|", "\\|")).append(" |");
        }
        sb.append('\n');
    }

    static String render(String rocketmqVersion, List<Patch> patches, Map<String, List<String>> applied, String codecJar) {
        StringBuilder sb = new StringBuilder();
        sb.append("# rmqpatch patches for RocketMQ ").append(rocketmqVersion).append("\n\n");
        sb.append("This distribution is stock RocketMQ ").append(rocketmqVersion)
            .append(" with a few class files rewritten to call the rmqpatch codec (`lib/").append(codecJar)
            .append("`). No RocketMQ source was changed or recompiled; the jars keep their names.\n\n");
        sb.append("## Check what is installed\n\n");
        sb.append("```bash\nbin/rmqpatch-info                       # this distribution's lib/\n")
            .append("bin/rmqpatch-info /opt/rocketmq/lib     # any RocketMQ lib/ folder\n")
            .append("java -jar tools/rmqpatch-info.jar --list-patches /opt/rocketmq/lib   # the same, JDK 8+, no script\n```\n\n")
            .append("Exit status 0: patched jars, the codec jar and every security patch present; 1: no patches (stock\n")
            .append("lib/); 3: patched jars but no codec jar (the broker would fail with NoClassDefFoundError); 4: patched\n")
            .append("jars but a security patch missing (for example a stock rocketmq-namesrv jar); 2: usage or I/O error.\n\n");
        sb.append("`bin/rmqpatch-info --verify [LIB_DIR]` checks every class of the rewritten jars against the record\n")
            .append("each of them carries (`META-INF/rmqpatch/RECORD`, copied to `record/`): exit 0 verified, 1 no record,\n")
            .append("5 differences (each named), 2 usage or I/O error. `SHA256SUMS` lists every jar of `lib/` and `tools/`;\n")
            .append("builds are reproducible, so a rebuild of the same commit gives the same sums.\n\n");
        sb.append("Each rewritten jar carries the manifest attribute `").append(JarPatcher.MANIFEST_ATTRIBUTE)
            .append("`. In this build:\n\n");
        row(sb, "jar", "patches");
        rule(sb, 2);
        for (Map.Entry<String, List<String>> e : applied.entrySet()) {
            row(sb, "`" + e.getKey() + "`", String.join(", ", e.getValue()));
        }
        row(sb, "`" + codecJar + "`", "(the codec the patches call)");
        sb.append('\n');
        sb.append("## Install into an existing ").append(rocketmqVersion).append(" name server and broker\n\n");
        sb.append("Stop the broker (and the name server, for S3), keep a copy of its `lib/`, copy the jars listed above\n")
            .append("from this `lib/` over the ones of the same name and add the codec jar, run `bin/rmqpatch-info <lib>`\n")
            .append("(exit 0), start them again. To roll back, put the saved jars back and remove the codec jar.\n\n");
        sb.append("## Security fixes\n\n");
        row(sb, "patch", "closes", "fixed upstream in");
        rule(sb, 3);
        for (Patch p : patches) {
            if (!p.closes().isEmpty()) {
                row(sb, PatchTargets.label(p), p.closes(), p.fixedUpstream());
            }
        }
        sb.append("\nThese close the holes listed; they do not make the ports safe to expose. The name server has\n")
            .append("no authentication, and stock 4.9.0 listens on every interface: start name servers and brokers with\n")
            .append("`JAVA_OPT=\"-Drmqpatch.bindAddress=ADDR\"` (S4) to listen on one address, keep the name server, broker\n")
            .append("and HA ports reachable only from clients and peers, and turn on the broker ACL (`aclEnable=true`,\n")
            .append("`conf/plain_acl.yml`) where clients can be given credentials.\n\n");
        sb.append("## Switching patches off\n\n")
            .append("Every patch can be turned off at start without a rebuild: `JAVA_OPT=\"-Drmqpatch.disable=P3,S2\"` (ids,\n")
            .append("comma-separated). A switched-off patch runs the stock code. An unknown id stops start-up with a message\n")
            .append("naming it; the broker and name-server logs say at start which patches the jars carry and which run.\n")
            .append("Turning off a security patch reopens its hole and is logged as a WARN.\n\n");
        List<String> shippedOff = new ArrayList<String>();
        for (Patch p : patches) {
            if (!p.onByDefault()) {
                shippedOff.add(PatchTargets.label(p));
            }
        }
        if (!shippedOff.isEmpty()) {
            sb.append("Off by default: ").append(String.join(", ", shippedOff)).append(". These are in the jars but run\n")
                .append("only when named in `JAVA_OPT=\"-Drmqpatch.enable=ID\"` (the section of each says what it costs);\n")
                .append("`-Drmqpatch.disable` still wins.\n\n");
        }
        sb.append("Transient properties: `WAIT` is never stored by P3. Add keys of your own with\n")
            .append("`JAVA_OPT=\"-Drmqpatch.transientProperties=KEY1,KEY2\"` (read once at start).\n\n");
        for (Patch p : patches) {
            sb.append("## ").append(PatchTargets.label(p)).append(p.onByDefault() ? "" : " (off by default)").append("\n\n");
            sb.append("**Effect.** ").append(p.effect()).append("\n\n");
            sb.append("**Why.** ").append(p.why()).append("\n\n");
            sb.append("**Targets.**\n\n");
            for (MethodEdit edit : p.edits()) {
                sb.append("- ").append(edit.describe()).append("\n");
            }
            sb.append("\n**Verify.** ").append(p.verification()).append("\n\n");
            sb.append("**Tested by** ").append(p.tests()).append(" (run by `mvn -B verify`). ");
            if (p.closes().isEmpty() && p.benchmark().matches("[A-Za-z]+Benchmark")) {
                sb.append("**Measured by** JMH `").append(p.benchmark()).append("` (module jmh-benchmarks).\n\n");
            } else if (p.closes().isEmpty()) {
                sb.append("**Measured by** ").append(p.benchmark()).append(".\n\n");
            } else {
                sb.append("**Closes** ").append(p.closes()).append(".\n\n");
            }
        }
        return sb.toString();
    }
}
