package dev.rmqpatch.patches.cli;

import java.io.File;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.OutputStreamWriter;
import java.io.PrintStream;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.util.List;

import dev.rmqpatch.patches.Patches;
import dev.rmqpatch.patches.StartupReport;
import dev.rmqpatch.patches.build.ReleaseLib;
import dev.rmqpatch.patches.build.ReleasePlan;

/**
 * {@code plan LIB_DIR [--json FILE]}: tells the RocketMQ release of a stock lib/ folder from its jars
 * ({@link ReleaseLib}) and runs every patch, as written for 4.9.0, against that release's classes in memory
 * ({@link ReleasePlan}): per patch, applies as written or refused with the reason. Nothing is written but the JSON
 * file asked for. Needs ASM and the codec on the class path (unlike {@code rmqpatch-info}):
 * {@code java -cp rmqpatch-broker-patches.jar:asm.jar:asm-tree.jar:rmqpatch-codec.jar
 * dev.rmqpatch.patches.cli.PlanRelease plan lib/}.
 */
public final class PlanRelease {

    static final int ALL_APPLY = 0;
    static final int SOME_REFUSED = 1;
    static final int USAGE = 2;
    static final int NOT_RECOGNISED = 3;

    private PlanRelease() {
    }

    public static void main(String[] args) {
        System.exit(run(args, System.out, System.err));
    }

    public static int run(String[] args, PrintStream out, PrintStream err) {
        if (args.length == 0 || args[0].equals("-h") || args[0].equals("--help")) {
            (args.length == 0 ? err : out).println(
                "Usage: java -cp rmqpatch-broker-patches.jar:asm.jar:asm-tree.jar:rmqpatch-codec.jar \\\n"
                    + "         dev.rmqpatch.patches.cli.PlanRelease plan LIB_DIR [--json FILE]\n"
                    + "Tells the RocketMQ release of a stock lib/ folder from its jars (MQVersion.CURRENT_VERSION in\n"
                    + "rocketmq-common, checked against every rocketmq-*.jar's name and manifest), then runs every rmqpatch\n"
                    + "patch, as written for 4.9.0, against that release's classes in memory, with the patcher's checks,\n"
                    + "each edit's witnesses (call-site counts, members the codec mirrors) and the header codecs' field\n"
                    + "names. Prints per patch: applies as written, or refused and why. Nothing is written but FILE\n"
                    + "(--json). \"applies\" means the edits fit the release's code, not that the codec is right for that\n"
                    + "release: see docs/releases.md.\n"
                    + "Exit status: 0 every patch applies as written, 1 the plan refuses at least one patch (or the start-up\n"
                    + "report), 2 usage or I/O error, 3 the release cannot be told (no RocketMQ jars, no rocketmq-common,\n"
                    + "mixed releases, jars rewritten by rmqpatch already).");
            return args.length == 0 ? USAGE : ALL_APPLY;
        }
        if (!args[0].equals("plan")) {
            err.println("rmqpatch-plan: unknown command " + args[0] + " (see --help)");
            return USAGE;
        }
        File lib = null;
        File json = null;
        for (int i = 1; i < args.length; i++) {
            if (args[i].equals("--json")) {
                if (i + 1 >= args.length) {
                    err.println("rmqpatch-plan: --json needs a FILE (see --help)");
                    return USAGE;
                }
                json = new File(args[++i]);
            } else if (args[i].startsWith("-") || lib != null) {
                err.println("rmqpatch-plan: unexpected argument " + args[i] + " (see --help)");
                return USAGE;
            } else {
                lib = new File(args[i]);
            }
        }
        if (lib == null) {
            err.println("rmqpatch-plan: plan takes a LIB_DIR (see --help)");
            return USAGE;
        }
        if (!lib.isDirectory()) {
            err.println("rmqpatch-plan: not a folder: " + lib);
            return USAGE;
        }
        ReleasePlan plan;
        try {
            plan = ReleasePlan.of(ReleaseLib.of(lib), Patches.all(), StartupReport.edits());
        } catch (ReleaseLib.NotRecognised e) {
            err.println("rmqpatch-plan: " + e.getMessage());
            return NOT_RECOGNISED;
        } catch (IOException e) {
            err.println("rmqpatch-plan: cannot read " + lib + ": " + e.getMessage());
            return USAGE;
        }
        table(plan, out);
        if (json != null) {
            try {
                Writer w = new OutputStreamWriter(new FileOutputStream(json), StandardCharsets.UTF_8);
                try {
                    w.write(json(plan));
                } finally {
                    w.close();
                }
            } catch (IOException e) {
                err.println("rmqpatch-plan: cannot write " + json + ": " + e.getMessage());
                return USAGE;
            }
        }
        boolean all = plan.applying() == plan.outcomes().size() && plan.startupReport().applies();
        return all ? ALL_APPLY : SOME_REFUSED;
    }

    /** The table: one row per patch, then the start-up report and the counts. */
    static void table(ReleasePlan plan, PrintStream out) {
        ReleaseLib lib = plan.lib();
        out.println("RocketMQ " + lib.release() + " (MQVersion " + lib.mqVersionConstant() + ", " + lib.rocketmqJars().size()
            + " RocketMQ jars in " + lib.dir() + "): patches as written for 4.9.0");
        out.println(String.format("%-34s %-8s %-36s %s", "patch", "outcome", "kind", "reason"));
        List<ReleasePlan.Outcome> rows = new java.util.ArrayList<ReleasePlan.Outcome>(plan.outcomes());
        rows.add(plan.startupReport());
        for (ReleasePlan.Outcome o : rows) {
            out.println(String.format("%-34s %-8s %-36s %s", o.label, o.applies() ? "applies" : "refused",
                o.applies() ? "" : o.kind, o.applies() ? "" : o.reason + (o.appliesAlone ? " [its edits fit when applied alone]" : "")));
        }
        out.println(plan.applying() + " of " + plan.outcomes().size() + " patches apply as written, "
            + (plan.outcomes().size() - plan.applying()) + " refused; start-up report "
            + (plan.startupReport().applies() ? "applies" : "refused"));
    }

    static String json(ReleasePlan plan) {
        StringBuilder sb = new StringBuilder();
        sb.append("{\n  \"release\": ").append(str(plan.lib().release()))
            .append(",\n  \"mqVersion\": ").append(str(plan.lib().mqVersionConstant()))
            .append(",\n  \"lib\": ").append(str(plan.lib().dir().getPath()))
            .append(",\n  \"applying\": ").append(plan.applying())
            .append(",\n  \"refused\": ").append(plan.outcomes().size() - plan.applying())
            .append(",\n  \"patches\": [");
        List<ReleasePlan.Outcome> rows = new java.util.ArrayList<ReleasePlan.Outcome>(plan.outcomes());
        rows.add(plan.startupReport());
        for (int i = 0; i < rows.size(); i++) {
            ReleasePlan.Outcome o = rows.get(i);
            sb.append(i == 0 ? "\n" : ",\n").append("    {\"id\": ").append(str(o.id))
                .append(", \"label\": ").append(str(o.label))
                .append(", \"outcome\": ").append(str(o.applies() ? "applies" : "refused"))
                .append(", \"kind\": ").append(o.kind == null ? "null" : str(o.kind))
                .append(", \"reason\": ").append(str(o.reason))
                .append(", \"appliesAlone\": ").append(o.appliesAlone).append('}');
        }
        return sb.append("\n  ]\n}\n").toString();
    }

    private static String str(String s) {
        StringBuilder sb = new StringBuilder("\"");
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c == '"' || c == '\\') {
                sb.append('\\').append(c);
            } else if (c < 0x20) {
                sb.append(String.format("\\u%04x", (int) c));
            } else {
                sb.append(c);
            }
        }
        return sb.append('"').toString();
    }
}
