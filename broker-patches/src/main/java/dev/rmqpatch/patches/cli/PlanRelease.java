package dev.rmqpatch.patches.cli;

import java.io.File;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.OutputStreamWriter;
import java.io.PrintStream;
import java.io.Writer;
import java.nio.charset.StandardCharsets;

import dev.rmqpatch.patches.Patches;
import dev.rmqpatch.patches.Release;
import dev.rmqpatch.patches.StartupReport;
import dev.rmqpatch.patches.build.ReleaseLib;
import dev.rmqpatch.patches.build.ReleaseReport;
import dev.rmqpatch.patches.build.ReleaseSelection;

/**
 * The release tool's entry point. {@code plan LIB_DIR [--json FILE]}: tells the RocketMQ release of a stock lib/
 * folder from its jars ({@link ReleaseLib}) and says per patch what {@code patch-lib} would do there
 * ({@link ReleaseSelection}: applied, already upstream, needs variant, refused by witness), with what the witnesses
 * say of each patch as written. Nothing is written but the JSON file asked for. {@code patch-lib ...} is
 * {@link PatchLib}. Needs ASM and the codec on the class path (unlike {@code rmqpatch-info}):
 * {@code java -cp rmqpatch-broker-patches.jar:asm.jar:asm-tree.jar:rmqpatch-codec.jar
 * dev.rmqpatch.patches.cli.PlanRelease plan lib/}.
 */
public final class PlanRelease {

    static final int ALL_APPLY = 0;
    static final int SOME_REFUSED = 1;
    static final int USAGE = 2;
    static final int NOT_RECOGNISED = 3;
    static final int UNSUPPORTED = 4;

    static final String USAGE_TEXT =
        "Usage: java -cp rmqpatch-broker-patches.jar:asm.jar:asm-tree.jar:rmqpatch-codec.jar \\\n"
            + "         dev.rmqpatch.patches.cli.PlanRelease plan LIB_DIR [--json FILE]\n"
            + "       ... PlanRelease patch-lib LIB_DIR --out OUT_DIR [--codec-jar JAR]\n"
            + "       ... PlanRelease patch-lib LIB_DIR --verify OUT_DIR [--codec-jar JAR]\n"
            + "plan tells the RocketMQ release of a stock lib/ folder from its jars (MQVersion.CURRENT_VERSION in\n"
            + "rocketmq-common, checked against every rocketmq-*.jar's name and manifest) and prints per patch what\n"
            + "patch-lib would do there: applied (declared for the release and passed by its witnesses), already\n"
            + "upstream or needs variant (as the patch declares for the release, with the reason), or refused by\n"
            + "witness (declared, but the release's code does not fit its edits); each row not applied also says what\n"
            + "the witnesses say of the patch as written. Nothing is written but FILE (--json).\n"
            + "Exit status: 0 every patch declared for the release passes its witnesses, 1 a witness refuses at least\n"
            + "one (or the start-up report), 2 usage or I/O error, 3 the release cannot be told (no RocketMQ jars, no\n"
            + "rocketmq-common, mixed releases, jars rewritten by rmqpatch already), 4 the patches declare nothing for\n"
            + "the release (supported: 4.9.0, 4.9.3, 4.9.4, 4.9.7, 4.9.8); the patches as written are still shown.\n"
            + "patch-lib: see `patch-lib --help`.";

    private PlanRelease() {
    }

    public static void main(String[] args) {
        System.exit(run(args, System.out, System.err));
    }

    public static int run(String[] args, PrintStream out, PrintStream err) {
        if (args.length == 0 || args[0].equals("-h") || args[0].equals("--help")) {
            (args.length == 0 ? err : out).println(USAGE_TEXT);
            return args.length == 0 ? USAGE : ALL_APPLY;
        }
        if (args[0].equals("patch-lib")) {
            String[] rest = new String[args.length - 1];
            System.arraycopy(args, 1, rest, 0, rest.length);
            return PatchLib.run(rest, out, err);
        }
        if (!args[0].equals("plan")) {
            err.println("rmqpatch-plan: unknown command " + args[0] + " (plan or patch-lib; see --help)");
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
        ReleaseSelection selection;
        try {
            selection = ReleaseSelection.of(ReleaseLib.of(lib), Patches.all(), StartupReport.edits());
        } catch (ReleaseLib.NotRecognised e) {
            err.println("rmqpatch-plan: " + e.getMessage());
            return NOT_RECOGNISED;
        } catch (IOException e) {
            err.println("rmqpatch-plan: cannot read " + lib + ": " + e.getMessage());
            return USAGE;
        }
        out.println("lib/: " + lib);
        out.print(ReleaseReport.text(selection));
        if (json != null) {
            try {
                Writer w = new OutputStreamWriter(new FileOutputStream(json), StandardCharsets.UTF_8);
                try {
                    w.write(ReleaseReport.json(selection));
                } finally {
                    w.close();
                }
            } catch (IOException e) {
                err.println("rmqpatch-plan: cannot write " + json + ": " + e.getMessage());
                return USAGE;
            }
        }
        if (!selection.supported()) {
            err.println("rmqpatch-plan: RocketMQ " + selection.lib().release() + " is not a release the patches declare "
                + "themselves for (supported: " + Release.supported() + "); patch-lib refuses it");
            return UNSUPPORTED;
        }
        boolean clean = selection.count(ReleaseSelection.Outcome.REFUSED) == 0 && selection.startupReport().applies();
        return clean ? ALL_APPLY : SOME_REFUSED;
    }
}
