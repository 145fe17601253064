package dev.rmqpatch.patches.build;

import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Enumeration;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;

import dev.rmqpatch.patches.Patches;
import dev.rmqpatch.patches.Release;
import dev.rmqpatch.patches.StartupReport;
import dev.rmqpatch.patches.transform.ClassBytes;
import dev.rmqpatch.patches.transform.PatchException;

/**
 * Patches an operator's own lib/ folder of a supported release into a new folder: the release told from the jars
 * ({@link ReleaseLib}), the patches chosen by their declarations and witnesses ({@link ReleaseSelection}), applied by
 * the same {@link JarPatcher} as the 4.9.0 patched distribution (rewritten jars under their own names, every other
 * jar copied, the codec jar added; any other file copied unchanged, a folder in the input refused), and the report
 * ({@link ReleaseReport}) written as {@value #REPORT_DIR}/{@value #REPORT_TEXT} and {@value #REPORT_JSON} inside the
 * new folder (a folder: the bin scripts put lib/'s jars on the class path, and on JDK 8 every file of lib/ through
 * java.ext.dirs). The input is never written to; an output that exists and is not empty, or lies inside the input, is
 * refused. Reproducible: the same input and codec jar give the same bytes, which {@link #verify} re-derives and
 * compares.
 */
public final class LibPatch {

    public static final String REPORT_DIR = "rmqpatch";
    public static final String REPORT_TEXT = "report.txt";
    public static final String REPORT_JSON = "report.json";

    /** A lib/ folder whose release the patches declare nothing for. */
    public static final class Unsupported extends Exception {
        private static final long serialVersionUID = 1L;
        public final transient ReleaseSelection selection;

        Unsupported(ReleaseSelection selection) {
            super("RocketMQ " + selection.lib().release() + " (" + selection.lib().mqVersionConstant() + ") is not a "
                + "release the patches declare themselves for; supported: " + Release.supported()
                + ". Nothing written (`plan` shows how the patches as written fit it)");
            this.selection = selection;
        }
    }

    private LibPatch() {
    }

    /**
     * Writes the patched copy of {@code in} into {@code out} (created; must be absent or empty).
     *
     * @return what was applied and why the rest was not
     * @throws IOException              when a folder or jar cannot be read or written, or {@code out} is not usable
     * @throws ReleaseLib.NotRecognised when the jars do not name one release
     * @throws Unsupported              when the release has no declarations
     * @throws PatchException           when the patcher refuses what the plan let through (nothing is left behind)
     */
    public static ReleaseSelection write(File in, File codecJar, File out)
        throws IOException, ReleaseLib.NotRecognised, Unsupported, PatchException {
        checkFolders(in, out);
        if (!codecJar.isFile()) {
            throw new IOException("no codec jar at " + codecJar);
        }
        ReleaseSelection selection = ReleaseSelection.of(ReleaseLib.of(in), Patches.all(), StartupReport.edits());
        if (!selection.supported()) {
            throw new Unsupported(selection);
        }
        if (!selection.startupReport().applies()) {
            throw new PatchException("the start-up report's edits do not fit RocketMQ " + selection.lib().release() + ": "
                + selection.startupReport().reason + "; nothing written");
        }
        boolean created = !out.exists();
        boolean done = false;
        try {
            JarPatcher.patch(in, codecJar, selection.applied(), StartupReport.edits(), out);
            for (File f : otherFiles(in)) {
                // Not on the class path on JDK 9+, but the new lib/ replaces the old one: whatever else was there stays.
                Files.copy(f.toPath(), new File(out, f.getName()).toPath());
            }
            File reports = new File(out, REPORT_DIR);
            if (!reports.mkdir()) {
                throw new IOException("cannot create " + reports);
            }
            Files.write(new File(reports, REPORT_TEXT).toPath(), ReleaseReport.text(selection).getBytes(StandardCharsets.UTF_8));
            Files.write(new File(reports, REPORT_JSON).toPath(), ReleaseReport.json(selection).getBytes(StandardCharsets.UTF_8));
            done = true;
            return selection;
        } finally {
            if (!done) {
                // A half-written lib/ would be mistaken for a patched one.
                deleteContents(out);
                if (created) {
                    Files.deleteIfExists(out.toPath());
                }
            }
        }
    }

    /**
     * Derives the patched folder from {@code in} again (into a temporary folder, removed afterwards) and compares it
     * with {@code out}, file by file and, for a jar that differs, entry by entry.
     *
     * @return the differences, empty when {@code out} is exactly what {@link #write} makes of {@code in}
     */
    public static List<String> verify(File in, File codecJar, File out)
        throws IOException, ReleaseLib.NotRecognised, Unsupported, PatchException {
        if (!out.isDirectory()) {
            throw new IOException("not a folder: " + out);
        }
        Path tmp = Files.createTempDirectory("rmqpatch-verify");
        try {
            File again = new File(tmp.toFile(), "lib");
            write(in, codecJar, again);
            return compare(again, out);
        } finally {
            deleteContents(tmp.toFile());
            Files.deleteIfExists(tmp);
        }
    }

    /** What differs between the expected folder and the actual one, by path relative to them. */
    static List<String> compare(File expected, File actual) throws IOException {
        Map<String, File> want = files(expected);
        Map<String, File> have = files(actual);
        List<String> diffs = new ArrayList<String>();
        TreeSet<String> all = new TreeSet<String>(want.keySet());
        all.addAll(have.keySet());
        for (String name : all) {
            File w = want.get(name);
            File h = have.get(name);
            if (h == null) {
                diffs.add(name + ": missing");
            } else if (w == null) {
                diffs.add(name + ": not written by patch-lib (added afterwards?)");
            } else if (!PatchRecord.sha256(w).equals(PatchRecord.sha256(h))) {
                diffs.add(name + ": differs" + (name.endsWith(".jar") ? entriesDiffering(w, h) : ""));
            }
        }
        return diffs;
    }

    private static String entriesDiffering(File want, File have) {
        try {
            Map<String, String> w = entries(want);
            Map<String, String> h = entries(have);
            List<String> names = new ArrayList<String>();
            TreeSet<String> all = new TreeSet<String>(w.keySet());
            all.addAll(h.keySet());
            for (String n : all) {
                String a = w.get(n);
                String b = h.get(n);
                if (a == null || !a.equals(b)) {
                    names.add(n + (a == null ? " (added)" : b == null ? " (missing)" : ""));
                }
            }
            if (names.isEmpty()) {
                return " (every entry's bytes are equal: the jar's layout or timestamps differ)";
            }
            return " (entries: " + (names.size() > 5 ? names.subList(0, 5) + " and " + (names.size() - 5) + " more" : names) + ")";
        } catch (IOException e) {
            return " (not a readable jar: " + e.getMessage() + ")";
        }
    }

    private static Map<String, String> entries(File jarFile) throws IOException {
        Map<String, String> m = new TreeMap<String, String>();
        JarFile jar = new JarFile(jarFile);
        try {
            for (Enumeration<JarEntry> en = jar.entries(); en.hasMoreElements(); ) {
                JarEntry e = en.nextElement();
                InputStream is = jar.getInputStream(e);
                try {
                    m.put(e.getName(), PatchRecord.sha256(ClassBytes.readFully(is)));
                } finally {
                    is.close();
                }
            }
        } finally {
            jar.close();
        }
        return m;
    }

    /** Every regular file under {@code root}, by its path relative to it ('/'-separated). */
    private static Map<String, File> files(File root) {
        Map<String, File> m = new TreeMap<String, File>();
        collect(root, "", m);
        return m;
    }

    private static void collect(File dir, String prefix, Map<String, File> into) {
        File[] children = dir.listFiles();
        if (children == null) {
            return;
        }
        Arrays.sort(children);
        for (File f : children) {
            if (f.isDirectory()) {
                collect(f, prefix + f.getName() + "/", into);
            } else {
                into.put(prefix + f.getName(), f);
            }
        }
    }

    private static void checkFolders(File in, File out) throws IOException {
        if (!in.isDirectory()) {
            throw new IOException("not a folder: " + in);
        }
        if (out.exists()) {
            String[] inside = out.list();
            if (inside == null) {
                throw new IOException(out + " exists and is not a folder");
            }
            if (inside.length > 0) {
                throw new IOException(out + " exists and is not empty; give a new folder (patch-lib never overwrites)");
            }
        }
        for (File f : in.listFiles()) {
            if (!f.isFile()) {
                throw new IOException(in + " holds " + f.getName() + ", which is not a file; a stock lib/ holds jars "
                    + "(patch-lib copies other files unchanged, but not folders)");
            }
        }
        Path inPath = in.getCanonicalFile().toPath();
        Path outPath = out.getCanonicalFile().toPath();
        if (outPath.startsWith(inPath)) {
            throw new IOException(out + " is inside the input " + in + "; patch-lib never writes there");
        }
    }

    /** The regular files of the folder that are not jars, sorted. */
    private static List<File> otherFiles(File dir) {
        List<File> files = new ArrayList<File>();
        File[] all = dir.listFiles();
        if (all != null) {
            Arrays.sort(all);
            for (File f : all) {
                if (f.isFile() && !f.getName().endsWith(".jar")) {
                    files.add(f);
                }
            }
        }
        return files;
    }

    private static void deleteContents(File dir) throws IOException {
        File[] children = dir.listFiles();
        if (children == null) {
            return;
        }
        for (File f : children) {
            if (f.isDirectory()) {
                deleteContents(f);
            }
            Files.deleteIfExists(f.toPath());
        }
    }
}
