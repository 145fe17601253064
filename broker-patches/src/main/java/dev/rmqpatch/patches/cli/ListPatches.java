package dev.rmqpatch.patches.cli;

import java.io.File;
import java.io.IOException;
import java.io.PrintStream;
import java.util.Arrays;
import java.util.jar.JarFile;
import java.util.jar.Manifest;

import dev.rmqpatch.patches.build.JarPatcher;

/**
 * {@code --list-patches [lib/]}: prints which rmqpatch patches the jars of a RocketMQ lib/ folder carry, read
 * from their {@code RocketMQ-Patches} manifest attribute, and whether the codec jar they call is present.
 * Runs on JDK 8, with nothing on the class path but this jar (the attribute name is a compile-time constant).
 */
public final class ListPatches {

    private ListPatches() {
    }

    public static void main(String[] args) {
        System.exit(run(args, System.out, System.err));
    }

    static int run(String[] args, PrintStream out, PrintStream err) {
        if (args.length == 0 || args[0].equals("-h") || args[0].equals("--help")) {
            (args.length == 0 ? err : out).println(
                "Usage: java -jar rmqpatch-info.jar --list-patches [LIB_DIR]\n"
                    + "Lists the rmqpatch patches installed in a RocketMQ lib/ folder (default: ./lib).\n"
                    + "Exit status: 0 patches found and the codec jar present, 1 no patches, 3 patched jars without the\n"
                    + "codec jar (the broker would fail with NoClassDefFoundError), 2 usage or I/O error.");
            return args.length == 0 ? 2 : 0;
        }
        if (!args[0].equals("--list-patches") || args.length > 2) {
            err.println("rmqpatch-info: unknown arguments " + Arrays.toString(args) + " (see --help)");
            return 2;
        }
        File lib = new File(args.length == 2 ? args[1] : "lib");
        File[] jars = lib.listFiles();
        if (jars == null) {
            err.println("rmqpatch-info: not a folder: " + lib);
            return 2;
        }
        Arrays.sort(jars);
        int patched = 0;
        boolean codec = false;
        for (File f : jars) {
            if (!f.getName().endsWith(".jar")) {
                continue;
            }
            if (f.getName().startsWith("rmqpatch-codec")) {
                codec = true;
                out.println(f.getName() + ": rmqpatch codec");
                continue;
            }
            try {
                String list = patchesOf(f);
                if (list != null) {
                    patched++;
                    out.println(f.getName() + ": " + list);
                }
            } catch (IOException e) {
                err.println("rmqpatch-info: cannot read " + f + ": " + e.getMessage());
                return 2;
            }
        }
        if (patched == 0) {
            out.println("no rmqpatch patches in " + lib);
            return 1;
        }
        if (!codec) {
            err.println("rmqpatch-info: patched jars found but no rmqpatch-codec jar in " + lib);
            return 3;
        }
        return 0;
    }

    static String patchesOf(File jar) throws IOException {
        JarFile jf = new JarFile(jar);
        try {
            Manifest m = jf.getManifest();
            return m == null ? null : m.getMainAttributes().getValue(JarPatcher.MANIFEST_ATTRIBUTE);
        } finally {
            jf.close();
        }
    }
}
