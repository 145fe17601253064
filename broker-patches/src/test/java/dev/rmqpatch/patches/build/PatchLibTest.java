package dev.rmqpatch.patches.build;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.ByteArrayOutputStream;
import java.io.File;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.jar.Attributes;
import java.util.jar.JarFile;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import dev.rmqpatch.patches.PatchTargets;
import dev.rmqpatch.patches.Patches;
import dev.rmqpatch.patches.Release;
import dev.rmqpatch.patches.ReleaseVariant;
import dev.rmqpatch.patches.StartupReport;
import dev.rmqpatch.patches.cli.ListPatches;
import dev.rmqpatch.patches.cli.PlanRelease;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** patch-lib: an operator's own lib/ patched into a new folder, its report, reproducibility, --verify, flags. */
class PatchLibTest {

    @TempDir
    Path tmp;

    private final ByteArrayOutputStream out = new ByteArrayOutputStream();
    private final ByteArrayOutputStream err = new ByteArrayOutputStream();

    private int run(String... args) throws Exception {
        out.reset();
        err.reset();
        String[] all = new String[args.length + 1];
        all[0] = "patch-lib";
        System.arraycopy(args, 0, all, 1, args.length);
        return PlanRelease.run(all, new PrintStream(out, true, "UTF-8"), new PrintStream(err, true, "UTF-8"));
    }

    private String outText() throws Exception {
        return out.toString("UTF-8");
    }

    private String errText() throws Exception {
        return err.toString("UTF-8");
    }

    @Test
    void patches497IntoANewFolderWithTheDeclaredPatchesAndTheReport() throws Exception {
        Path in = ReleaseLibs.copyOf497(tmp.resolve("in"));
        Map<String, String> before = hashes(in);
        String codec = TestJars.codecJar(tmp).toString();
        Path dest = tmp.resolve("out");
        assertEquals(0, run(in.toString(), "--out", dest.toString(), "--codec-jar", codec), outText() + errText());
        assertEquals(before, hashes(in), "the input is never written");

        List<String> applied = Patches.all().stream().filter(p -> p.on(Release.V4_9_7).applies()).map(PatchTargets::label)
            .collect(Collectors.toList());
        Map<String, List<String>> byJar = PatchTargets.labelsByJar(Patches.all().stream()
            .filter(p -> p.on(Release.V4_9_7).applies()).map(p -> ReleaseVariant.of(p, Release.V4_9_7))
            .collect(Collectors.toList()));
        for (String jar : before.keySet()) {
            Path f = dest.resolve(jar);
            assertTrue(Files.isRegularFile(f), jar);
            String artifact = jar.substring(0, jar.length() - "-4.9.7.jar".length());
            String carried = manifestPatches(f);
            if (byJar.containsKey(artifact)) {
                assertEquals(String.join(", ", byJar.get(artifact)), carried, jar);
            } else {
                assertEquals(null, carried, jar);
                assertArrayEquals(Files.readAllBytes(in.resolve(jar)), Files.readAllBytes(f), jar + " copied as it was");
            }
        }
        assertTrue(Files.isRegularFile(dest.resolve(new File(codec).getName())), "the codec jar is added");

        String report = Files.readString(dest.resolve("rmqpatch/report.txt"), StandardCharsets.UTF_8);
        String json = Files.readString(dest.resolve("rmqpatch/report.json"), StandardCharsets.UTF_8);
        assertTrue(report.startsWith("RocketMQ 4.9.7 (MQVersion V4_9_7, 11 RocketMQ jars)"), report);
        assertTrue(report.contains(applied.size() + " applied, "), report);
        assertTrue(report.lines().anyMatch(l -> l.startsWith("P7 codec-on-io-thread") && l.contains("applied")), report);
        assertTrue(report.lines().anyMatch(l -> l.startsWith("P8 remote-address-cache") && l.contains("already upstream")),
            report);
        assertTrue(report.lines().anyMatch(l -> l.startsWith("P28 consume-decode") && l.contains("as variant")), report);
        assertTrue(report.lines().anyMatch(l -> l.startsWith("P2 properties-codec") && l.contains("as variant")), report);
        assertTrue(report.lines().anyMatch(l -> l.startsWith("P6 json-header-encode") && l.contains("as variant")), report);
        // Every patch is applied (as written or as its variant) or already upstream on 4.9.7: none waits for a variant.
        assertTrue(report.contains(" 0 need a variant, "), report);
        assertFalse(report.lines().anyMatch(l -> l.contains("needs variant")), report);
        assertTrue(json.contains("\"release\": \"4.9.7\"") && json.contains("\"refusedByWitness\": 0")
            && json.contains("\"applied\": " + applied.size()), json);
        for (String id : Patches.all().stream().map(p -> p.id()).collect(Collectors.toList())) {
            assertTrue(json.contains("{\"id\": \"" + id + "\""), id);
        }
        assertFalse(report.contains(tmp.toString()) || json.contains(tmp.toString()), "the report names no path");

        // rmqpatch-info reads the report: S2 is no hole on 4.9.7 (upstream removed the filter server); S6's 4.9.4+
        // variant leaves the remoting jar alone (4.9.7 bounds its frames itself) and is in the common and store jars.
        ByteArrayOutputStream info = new ByteArrayOutputStream();
        int rc = ListPatches.run(new String[] {"--list-patches", dest.toString()}, new PrintStream(info, true, "UTF-8"),
            new PrintStream(new ByteArrayOutputStream()));
        String listed = info.toString("UTF-8");
        assertEquals(0, rc, listed);
        assertTrue(listed.contains("security: S2 not applied, already upstream in this release (patch-lib report: 4.9.7 "
            + "removed the filter server"), listed);
        assertFalse(listed.contains("MISSING"), listed);
        assertTrue(listed.contains("security: S6 leaves rocketmq-remoting-4.9.7.jar alone from 4.9.4")
            && listed.contains("security: S6 frame-bounds closes unbounded allocation from lengths and counts in requests "
            + "(pre-authentication OutOfMemoryError) (rocketmq-common-4.9.7.jar)"), listed);
        assertTrue(listed.contains("security: S1 broker-config-guard closes CVE-2023-33246"), listed);
    }

    @Test
    void twoRunsGiveTheSameBytesAndVerifyFindsAChangedByte() throws Exception {
        Path in = ReleaseLibs.release497();
        String codec = TestJars.codecJar(tmp).toString();
        Path a = tmp.resolve("a");
        Path b = tmp.resolve("b");
        assertEquals(0, run(in.toString(), "--out", a.toString(), "--codec-jar", codec), errText());
        assertEquals(0, run(in.toString(), "--out", b.toString(), "--codec-jar", codec), errText());
        assertEquals(hashes(a), hashes(b));
        assertEquals(List.of(), LibPatch.compare(a.toFile(), b.toFile()));

        assertEquals(0, run(in.toString(), "--verify", a.toString(), "--codec-jar", codec), outText() + errText());
        assertTrue(outText().contains("verified: "), outText());

        // One byte of a rewritten jar's stored class data changed.
        Path broker = b.resolve("rocketmq-broker-4.9.7.jar");
        byte[] bytes = Files.readAllBytes(broker);
        bytes[bytes.length / 2] ^= 0x01;
        Files.write(broker, bytes);
        assertEquals(5, run(in.toString(), "--verify", b.toString(), "--codec-jar", codec), outText() + errText());
        assertTrue(outText().contains("DIFF rocketmq-broker-4.9.7.jar: differs"), outText());

        // A file added, the report removed.
        Files.write(a.resolve("extra.jar"), new byte[] {1});
        Files.delete(a.resolve("rmqpatch/report.json"));
        assertEquals(5, run(in.toString(), "--verify", a.toString(), "--codec-jar", codec), outText());
        assertTrue(outText().contains("DIFF extra.jar: not written by patch-lib") && outText().contains(
            "DIFF rmqpatch/report.json: missing"), outText());
    }

    /**
     * On 4.9.0 patch-lib gives the jars the patched distribution has: its lib/ is JarPatcher.patch of the stock lib/ with
     * every patch and the start-up report (DistributionBuilder), and so is patch-lib's, every patch being declared
     * for 4.9.0.
     */
    @Test
    void on490TheJarsAreThoseOfThePatchedDistribution() throws Exception {
        assumeTrue(TestJars.rocketmqVersion().equals("4.9.0"), "the patches are written for 4.9.0's jars");
        Path stock = TestJars.stockLib(tmp.resolve("stock"));
        File codec = TestJars.codecJar(tmp);
        Path distribution = tmp.resolve("distribution-lib");
        JarPatcher.patch(stock.toFile(), codec, Patches.all(), StartupReport.edits(), distribution.toFile());
        Path patched = tmp.resolve("patch-lib");
        assertEquals(0, run(stock.toString(), "--out", patched.toString(), "--codec-jar", codec.toString()), errText());
        Map<String, String> lib = hashes(patched);
        lib.keySet().removeIf(n -> n.startsWith("rmqpatch/"));
        assertEquals(hashes(distribution), lib);
        assertEquals(0, ListPatches.run(new String[] {"--list-patches", patched.toString()},
            new PrintStream(new ByteArrayOutputStream()), new PrintStream(new ByteArrayOutputStream())));
    }

    @Test
    void refusesAnOutputThatExistsOrLiesInsideTheInput() throws Exception {
        Path in = ReleaseLibs.copyOf497(tmp.resolve("in"));
        Map<String, String> before = hashes(in);
        String codec = TestJars.codecJar(tmp).toString();
        Path full = Files.createDirectories(tmp.resolve("full"));
        Files.write(full.resolve("x"), new byte[] {1});
        assertEquals(2, run(in.toString(), "--out", full.toString(), "--codec-jar", codec));
        assertTrue(errText().contains("exists and is not empty"), errText());
        assertEquals(2, run(in.toString(), "--out", in.resolve("patched").toString(), "--codec-jar", codec));
        assertTrue(errText().contains("is inside the input"), errText());
        assertEquals(2, run(in.toString(), "--out", in.toString(), "--codec-jar", codec));
        assertEquals(before, hashes(in));
        // An empty folder is fine; a file other than a jar is copied as it is.
        Files.write(in.resolve("NOTES.txt"), "kept".getBytes(StandardCharsets.UTF_8));
        Path empty = Files.createDirectories(tmp.resolve("empty"));
        assertEquals(0, run(in.toString(), "--out", empty.toString(), "--codec-jar", codec), errText());
        assertEquals("kept", Files.readString(empty.resolve("NOTES.txt"), StandardCharsets.UTF_8));
        // A folder inside the input is not something a new lib/ can reproduce by copying files: refused.
        Files.createDirectories(in.resolve("ext"));
        assertEquals(2, run(in.toString(), "--out", tmp.resolve("o2").toString(), "--codec-jar", codec));
        assertTrue(errText().contains("holds ext, which is not a file"), errText());
        assertFalse(Files.exists(tmp.resolve("o2")));
    }

    @Test
    void aReleaseWithoutDeclarationsIsRefusedAndNothingWritten() throws Exception {
        Path in = ReleaseLibs.fakeRelease(tmp.resolve("in"), "4.9.6");
        Path dest = tmp.resolve("out");
        assertEquals(4, run(in.toString(), "--out", dest.toString(), "--codec-jar", TestJars.codecJar(tmp).toString()));
        assertTrue(errText().contains("RocketMQ 4.9.6 (V4_9_6) is not a release the patches declare themselves for; "
            + "supported: 4.9.0, 4.9.3, 4.9.4, 4.9.7, 4.9.8"), errText());
        assertFalse(Files.exists(dest));
        // No RocketMQ jar at all: the release cannot be told.
        Path nothing = Files.createDirectories(tmp.resolve("nothing"));
        assertEquals(3, run(nothing.toString(), "--out", dest.toString(), "--codec-jar", TestJars.codecJar(tmp).toString()));
        assertTrue(errText().contains("no RocketMQ jars"), errText());
        assertFalse(Files.exists(dest));
    }

    @Test
    void wrongFlagsAreNamed() throws Exception {
        String in = ReleaseLibs.release497().toString();
        String dest = tmp.resolve("o").toString();
        String codec = TestJars.codecJar(tmp).toString();
        assertEquals(0, run("--help"));
        assertTrue(outText().contains("--verify derives"), outText());
        assertEquals(2, run());
        assertTrue(errText().contains("patch-lib takes a LIB_DIR"), errText());
        assertEquals(2, run(in));
        assertTrue(errText().contains("give --out OUT_DIR (write) or --verify OUT_DIR (check)"), errText());
        assertEquals(2, run(in, "--out"));
        assertTrue(errText().contains("--out needs a value"), errText());
        assertEquals(2, run(in, "--out", dest, "--verify", dest));
        assertTrue(errText().contains("give one of --out and --verify, once"), errText());
        assertEquals(2, run(in, "--outdir", dest));
        assertTrue(errText().contains("unknown option --outdir"), errText());
        assertEquals(2, run(in, in, "--out", dest));
        assertTrue(errText().contains("unexpected argument"), errText());
        assertEquals(2, run(in, "--out", dest, "--codec-jar", codec, "--codec-jar", codec));
        assertTrue(errText().contains("--codec-jar given twice"), errText());
        // Without --codec-jar, the codec the tool runs with: a jar after package, a folder of classes before.
        int rc = run(in, "--out", tmp.resolve("default-codec").toString());
        assertTrue(rc == 0 || (rc == 2 && errText().contains("the codec on the class path is not a jar; name one with "
            + "--codec-jar")), rc + ": " + errText());
        assertEquals(2, run(in, "--out", dest, "--codec-jar", tmp.resolve("absent.jar").toString()));
        assertTrue(errText().contains("no codec jar at"), errText());
        assertEquals(2, run(tmp.resolve("absent").toString(), "--out", dest, "--codec-jar", codec));
        assertTrue(errText().contains("not a folder"), errText());
        assertEquals(2, run(in, "--verify", tmp.resolve("absent").toString(), "--codec-jar", codec));
        assertFalse(Files.exists(Path.of(dest)));
    }

    private static String manifestPatches(Path jar) throws Exception {
        try (JarFile jf = new JarFile(jar.toFile())) {
            Attributes main = jf.getManifest() == null ? null : jf.getManifest().getMainAttributes();
            return main == null ? null : main.getValue(JarPatcher.MANIFEST_ATTRIBUTE);
        }
    }

    /** Every file under a folder by relative path, with its sha256. */
    private static Map<String, String> hashes(Path root) throws Exception {
        Map<String, String> m = new TreeMap<>();
        List<Path> files = new ArrayList<>();
        try (Stream<Path> s = Files.walk(root)) {
            s.filter(Files::isRegularFile).forEach(files::add);
        }
        for (Path f : files) {
            m.put(root.relativize(f).toString().replace(File.separatorChar, '/'), PatchRecord.sha256(f.toFile()));
        }
        return m;
    }
}
