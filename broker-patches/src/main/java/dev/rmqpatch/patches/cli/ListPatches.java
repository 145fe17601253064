package dev.rmqpatch.patches.cli;

import java.io.File;
import java.io.IOException;
import java.io.PrintStream;
import java.util.Arrays;
import java.util.Map;
import java.util.TreeMap;
import java.util.jar.JarFile;
import java.util.jar.Manifest;

import dev.rmqpatch.patches.build.JarPatcher;
import dev.rmqpatch.patches.build.LibPatch;

/**
 * {@code --list-patches [lib/]}: prints which rmqpatch patches the jars of a RocketMQ lib/ folder carry, read
 * from their {@code RocketMQ-Patches} manifest attribute, whether the codec jar they call is present, and which
 * known remote-code-execution holes the folder's broker and name-server jars close or leave open.
 * Runs on JDK 8, with nothing on the class path but this jar (the attribute name is a compile-time constant).
 */
public final class ListPatches {

    /**
     * The security patches, the CVE each closes, the stock jar (by name prefix) it must be in, and the first release
     * from which that jar is not edited by it ("" for none: every release the patch applies on). Kept here, not read
     * from the patch classes, because those need ASM, which is not in this jar; a test checks both agree, release by
     * release (S6's 4.9.4+ variant leaves the remoting jar alone: the release bounds its frames itself).
     */
    static final String[][] SECURITY = {
        {"S1", "CVE-2023-33246", "rocketmq-broker-", ""},
        {"S2", "CVE-2023-33246", "rocketmq-broker-", ""},
        {"S3", "CVE-2023-37582", "rocketmq-namesrv-", ""},
        {"S5", "fastjson autoType (CVE-2022-25845 class)", "rocketmq-remoting-", ""},
        {"S6", "unbounded allocation from lengths and counts in requests (pre-authentication OutOfMemoryError)",
            "rocketmq-remoting-", "4.9.4"},
        {"S6", "unbounded allocation from lengths and counts in requests (pre-authentication OutOfMemoryError)",
            "rocketmq-common-", ""},
        {"S6", "unbounded allocation from lengths and counts in requests (pre-authentication OutOfMemoryError)",
            "rocketmq-store-", ""},
        {"S7", "CVE-2024-23321", "rocketmq-broker-", ""},
        {"S8", "CVE-2024-23321", "rocketmq-broker-", ""},
        {"S9", "consumer-group path traversal (files written outside the store)", "rocketmq-broker-", ""},
    };

    /** Whether the row's patch edits a jar of this release ("4.9.7", from the jar's name; null: not told). */
    static boolean editsJarOf(String[] row, String release) {
        return row[3].isEmpty() || release == null || compareReleases(release, row[3]) < 0;
    }

    /** "rocketmq-remoting-4.9.7.jar" with prefix "rocketmq-remoting-": "4.9.7"; null when it does not look so. */
    static String releaseOf(String jarName, String prefix) {
        String v = jarName.substring(prefix.length(), jarName.length() - ".jar".length());
        return v.matches("[0-9]+(\\.[0-9]+)*") ? v : null;
    }

    static int compareReleases(String a, String b) {
        String[] x = a.split("\\.");
        String[] y = b.split("\\.");
        for (int i = 0; i < Math.max(x.length, y.length); i++) {
            int d = Integer.parseInt(i < x.length ? x[i] : "0") - Integer.parseInt(i < y.length ? y[i] : "0");
            if (d != 0) {
                return d;
            }
        }
        return 0;
    }

    private ListPatches() {
    }

    public static void main(String[] args) {
        System.exit(run(args, System.out, System.err));
    }

    public static int run(String[] args, PrintStream out, PrintStream err) {
        if (args.length == 0 || args[0].equals("-h") || args[0].equals("--help")) {
            (args.length == 0 ? err : out).println(
                "Usage: java -jar rmqpatch-info.jar --list-patches [LIB_DIR]\n"
                    + "       java -jar rmqpatch-info.jar --verify LIB_DIR\n"
                    + "--list-patches lists the rmqpatch patches installed in a RocketMQ lib/ folder (default: ./lib).\n"
                    + "Exit status: 0 patches found, the codec jar present and every security patch in place, 1 no patches,\n"
                    + "3 patched jars without the codec jar (the broker would fail with NoClassDefFoundError), 4 patched\n"
                    + "jars but a security patch missing (e.g. an older rmqpatch build, or rocketmq-namesrv not replaced),\n"
                    + "2 usage or I/O error. A security patch that the folder's patch-lib report (rmqpatch/report.txt)\n"
                    + "declares already upstream in its release is listed as such, not as missing.\n"
                    + "--verify checks LIB_DIR against the record inside its rewritten jars: every rewritten jar present,\n"
                    + "every class in them as this build wrote it (patched) or as in stock (the rest), the codec jar as\n"
                    + "built, no RocketMQ jar of another version; prints each difference. Exit status: 0 verified,\n"
                    + "1 no record (stock lib/ or a build before records), 5 differences found, 2 usage or I/O error.\n"
                    + "A record inside a jar proves nothing against whoever can rewrite the jar: check the jars against\n"
                    + "the published SHA256SUMS (sha256sum -c) or a rebuild of the same commit first.");
            return args.length == 0 ? 2 : 0;
        }
        if (args[0].equals("--verify")) {
            if (args.length != 2) {
                err.println("rmqpatch-info: --verify takes exactly one LIB_DIR (see --help)");
                return 2;
            }
            return VerifyInstall.run(new File(args[1]), out, err);
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
        Map<String, String> patchesByJar = new TreeMap<String, String>();
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
                patchesByJar.put(f.getName(), list == null ? "" : list);
                if (list != null) {
                    patched++;
                    out.println(f.getName() + ": " + list);
                }
            } catch (IOException e) {
                err.println("rmqpatch-info: cannot read " + f + ": " + e.getMessage());
                return 2;
            }
        }
        Map<String, String[]> declared;
        try {
            declared = patchLibReport(lib);
        } catch (IOException e) {
            err.println("rmqpatch-info: cannot read the patch-lib report in " + lib + ": " + e.getMessage());
            return 2;
        }
        boolean securityComplete = reportSecurity(patchesByJar, declared, out);
        if (patched == 0) {
            out.println("no rmqpatch patches in " + lib);
            return 1;
        }
        if (!codec) {
            err.println("rmqpatch-info: patched jars found but no rmqpatch-codec jar in " + lib);
            return 3;
        }
        return securityComplete ? 0 : 4;
    }

    /**
     * One line per security patch that applies to a jar of the folder; false when any is missing. A patch the patch-lib
     * report of the folder declares already upstream for its release is not missing; one it declares in need of a
     * variant still is, with the report's reason.
     */
    private static boolean reportSecurity(Map<String, String> patchesByJar, Map<String, String[]> declared,
                                          PrintStream out) {
        boolean complete = true;
        for (String[] s : SECURITY) {
            String[] fit = declared.get(s[0]);
            if (fit != null && fit[0].equals(UPSTREAM)) {
                out.println("security: " + s[0] + " not applied, already upstream in this release (patch-lib report: "
                    + fit[1] + ")");
                continue;
            }
            for (Map.Entry<String, String> jar : patchesByJar.entrySet()) {
                if (!jar.getKey().startsWith(s[2]) || !jar.getKey().endsWith(".jar")) {
                    continue;
                }
                if (!editsJarOf(s, releaseOf(jar.getKey(), s[2]))) {
                    out.println("security: " + s[0] + " leaves " + jar.getKey() + " alone from " + s[3]
                        + " (that release closes this part itself)");
                    continue;
                }
                String label = labelOf(jar.getValue(), s[0]);
                if (label != null) {
                    out.println("security: " + label + " closes " + s[1] + " (" + jar.getKey() + ")");
                } else {
                    complete = false;
                    out.println("security: MISSING " + s[0] + " in " + jar.getKey() + ": " + s[1] + " is open"
                        + (fit == null ? "" : " (patch-lib report: " + fit[0] + ": " + fit[1] + ")"));
                }
            }
        }
        return complete;
    }

    /** The outcomes of {@code build/ReleaseReport}'s rows that mean "not applied, by the declaration". */
    static final String UPSTREAM = "already upstream";
    static final String NEEDS_VARIANT = "needs variant";
    /** A row of patch-lib's report.txt: label (id, name), outcome, reason. */
    private static final java.util.regex.Pattern REPORT_ROW = java.util.regex.Pattern.compile(
        "^([PS][0-9]+) \\S+ +(" + UPSTREAM + "|" + NEEDS_VARIANT + ") +(.*)$");

    /**
     * Patch id to {outcome, reason} for the rows of {@code lib/rmqpatch/report.txt} (written by patch-lib) that a
     * declaration left out; empty without a report (the 4.9.0 distribution has none).
     */
    static Map<String, String[]> patchLibReport(File lib) throws IOException {
        Map<String, String[]> rows = new TreeMap<String, String[]>();
        // Compile-time constants, inlined: this tool runs without ASM, which LibPatch's class needs.
        File report = new File(new File(lib, LibPatch.REPORT_DIR), LibPatch.REPORT_TEXT);
        if (!report.isFile()) {
            return rows;
        }
        java.io.BufferedReader r = new java.io.BufferedReader(new java.io.InputStreamReader(
            new java.io.FileInputStream(report), java.nio.charset.StandardCharsets.UTF_8));
        try {
            for (String line; (line = r.readLine()) != null; ) {
                java.util.regex.Matcher m = REPORT_ROW.matcher(line);
                if (m.matches()) {
                    rows.put(m.group(1), new String[] {m.group(2), m.group(3)});
                }
            }
        } finally {
            r.close();
        }
        return rows;
    }

    private static String labelOf(String patchList, String id) {
        for (String label : patchList.split(",")) {
            String l = label.trim();
            if (l.equals(id) || l.startsWith(id + " ")) {
                return l;
            }
        }
        return null;
    }

    /** The {@value JarPatcher#MANIFEST_ATTRIBUTE} of a jar, or null for a jar the patcher did not rewrite. */
    public static String patchesOf(File jar) throws IOException {
        JarFile jf = new JarFile(jar);
        try {
            Manifest m = jf.getManifest();
            return m == null ? null : m.getMainAttributes().getValue(JarPatcher.MANIFEST_ATTRIBUTE);
        } finally {
            jf.close();
        }
    }
}
