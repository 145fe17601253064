package dev.rmqpatch.patches.cli;

import java.io.File;
import java.io.IOException;
import java.io.PrintStream;
import java.net.URISyntaxException;
import java.security.CodeSource;
import java.util.List;

import dev.rmqpatch.codec.switches.PatchSwitches;
import dev.rmqpatch.patches.build.LibPatch;
import dev.rmqpatch.patches.build.ReleaseLib;
import dev.rmqpatch.patches.build.ReleaseReport;
import dev.rmqpatch.patches.build.ReleaseSelection;
import dev.rmqpatch.patches.transform.PatchException;

/**
 * {@code patch-lib LIB_DIR --out OUT_DIR | --verify OUT_DIR [--codec-jar JAR]}: writes a patched copy of an
 * operator's stock lib/ folder ({@link LibPatch}) and prints the report, or checks that a folder is exactly what
 * patch-lib makes of LIB_DIR. The codec jar is the one on this tool's class path unless {@code --codec-jar} names
 * another.
 */
final class PatchLib {

    static final int DONE = 0;
    static final int SOME_REFUSED = 1;
    static final int USAGE = 2;
    static final int NOT_RECOGNISED = 3;
    static final int UNSUPPORTED = 4;
    static final int DIFFERS = 5;
    static final int PATCH_FAILED = 6;

    static final String HELP =
        "Usage: ... PlanRelease patch-lib LIB_DIR --out OUT_DIR [--codec-jar JAR]\n"
            + "       ... PlanRelease patch-lib LIB_DIR --verify OUT_DIR [--codec-jar JAR]\n"
            + "--out writes a patched copy of LIB_DIR, a stock RocketMQ lib/ folder of 4.9.0, 4.9.3, 4.9.4, 4.9.7 or 4.9.8\n"
            + "(the release is told from the jars), into OUT_DIR (created; refused if it exists and is not empty, or is\n"
            + "inside LIB_DIR; LIB_DIR is never written): the patches declared for that release whose witnesses pass,\n"
            + "applied to its jars (rewritten under their own names), every other jar copied, the codec jar added, and\n"
            + "the report in OUT_DIR/rmqpatch/report.txt and report.json: every patch applied, already upstream, needs\n"
            + "variant or refused by witness, with the reason. The same input gives the same bytes.\n"
            + "--verify derives the patched folder from LIB_DIR again and compares it with OUT_DIR, file by file.\n"
            + "--codec-jar the codec jar to add (default: the one on this tool's class path).\n"
            + "Exit status: 0 written (or verified) and every declared patch applied, 1 written, but a witness refused at\n"
            + "least one declared patch (named in the report), 2 usage or I/O error, 3 the release cannot be told,\n"
            + "4 not a release the patches declare themselves for (nothing written), 5 --verify found differences,\n"
            + "6 the patcher refused what the plan let through (nothing written; a bug).";

    private PatchLib() {
    }

    static int run(String[] args, PrintStream out, PrintStream err) {
        if (args.length == 1 && (args[0].equals("-h") || args[0].equals("--help"))) {
            out.println(HELP);
            return DONE;
        }
        File lib = null;
        File target = null;
        boolean verify = false;
        File codec = null;
        for (int i = 0; i < args.length; i++) {
            String a = args[i];
            if (a.equals("--out") || a.equals("--verify") || a.equals("--codec-jar")) {
                if (i + 1 >= args.length || args[i + 1].startsWith("-")) {
                    return usage(err, a + " needs a value");
                }
                File value = new File(args[++i]);
                if (a.equals("--codec-jar")) {
                    if (codec != null) {
                        return usage(err, "--codec-jar given twice");
                    }
                    codec = value;
                } else {
                    if (target != null) {
                        return usage(err, "give one of --out and --verify, once");
                    }
                    target = value;
                    verify = a.equals("--verify");
                }
            } else if (a.startsWith("-")) {
                return usage(err, "unknown option " + a);
            } else if (lib != null) {
                return usage(err, "unexpected argument " + a + " (one LIB_DIR)");
            } else {
                lib = new File(a);
            }
        }
        if (lib == null) {
            return usage(err, "patch-lib takes a LIB_DIR");
        }
        if (target == null) {
            return usage(err, "give --out OUT_DIR (write) or --verify OUT_DIR (check)");
        }
        if (codec == null) {
            codec = codecOnClassPath();
            if (codec == null) {
                return usage(err, "the codec on the class path is not a jar; name one with --codec-jar");
            }
        }
        try {
            if (verify) {
                List<String> diffs = LibPatch.verify(lib, codec, target);
                for (String d : diffs) {
                    out.println("DIFF " + d);
                }
                out.println(diffs.isEmpty() ? "verified: " + target + " is what patch-lib makes of " + lib
                    : diffs.size() + " difference(s) between " + target + " and what patch-lib makes of " + lib);
                return diffs.isEmpty() ? DONE : DIFFERS;
            }
            ReleaseSelection s = LibPatch.write(lib, codec, target);
            out.print(ReleaseReport.text(s));
            out.println("written: " + target + " (report: " + new File(new File(target, LibPatch.REPORT_DIR),
                LibPatch.REPORT_TEXT) + ", " + LibPatch.REPORT_JSON + ")");
            return s.count(ReleaseSelection.Outcome.REFUSED) == 0 ? DONE : SOME_REFUSED;
        } catch (ReleaseLib.NotRecognised e) {
            err.println("patch-lib: " + e.getMessage());
            return NOT_RECOGNISED;
        } catch (LibPatch.Unsupported e) {
            err.println("patch-lib: " + e.getMessage());
            return UNSUPPORTED;
        } catch (PatchException e) {
            err.println("patch-lib: " + e.getMessage());
            return PATCH_FAILED;
        } catch (IOException e) {
            err.println("patch-lib: " + e.getMessage());
            return USAGE;
        }
    }

    private static int usage(PrintStream err, String message) {
        err.println("patch-lib: " + message + " (see patch-lib --help)");
        return USAGE;
    }

    /** The jar the codec's classes are loaded from, or null when they come from a folder. */
    private static File codecOnClassPath() {
        CodeSource cs = PatchSwitches.class.getProtectionDomain().getCodeSource();
        if (cs == null || cs.getLocation() == null) {
            return null;
        }
        try {
            File f = new File(cs.getLocation().toURI());
            return f.isFile() && f.getName().endsWith(".jar") ? f : null;
        } catch (URISyntaxException | IllegalArgumentException e) {
            return null;
        }
    }
}
