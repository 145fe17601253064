package dev.rmqpatch.patches;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import dev.rmqpatch.patches.build.PatchRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Builds codec and broker-patches (with local-cluster, which broker-patches' tests need) a second time, from a copy of the sources in a temp folder, in another time
 * zone and some seconds later, and compares every file of the patched distribution's lib/ and tools/, its
 * SHA256SUMS and records, and every file of the client delivery, with the ones this build made: an operator who rebuilds the same commit must get the
 * same bytes, or published sums mean nothing.
 */
class ReproducibleBuildIT {

    @TempDir
    Path tmp;

    @Test
    void secondBuildOfTheSameSourcesGivesIdenticalBytes() throws Exception {
        Path root = Path.of("").toAbsolutePath().getParent();
        Path copy = tmp.resolve("src");
        copySources(root, copy);
        String version = System.getProperty("rmqpatch.rocketmq.version", "4.9.0");
        List<String> cmd = new ArrayList<>(List.of(mvn(), "-B", "-q", "-o", "-DskipTests", "-Drocketmq.version=" + version,
            "-pl", "codec,local-cluster,broker-patches", "package"));
        // The outer build's local repository (its -Dmaven.repo.local, passed down by the pom): offline, the nested
        // build finds the stock jars and plugins only where the outer build put them.
        String repo = System.getProperty("maven.repo.local", "");
        if (!repo.isEmpty()) {
            cmd.add("-Dmaven.repo.local=" + repo);
        }
        Path log = tmp.resolve("build.log");
        ProcessBuilder pb = new ProcessBuilder(cmd).directory(copy.toFile()).redirectErrorStream(true)
            .redirectOutput(log.toFile());
        pb.environment().put("TZ", "Pacific/Chatham");
        Process p = pb.start();
        boolean done = p.waitFor(10, TimeUnit.MINUTES);
        if (!done) {
            p.destroyForcibly().waitFor();
        }
        assertTrue(done && p.exitValue() == 0, "second build failed:\n" + Files.readString(log));

        String dist = "broker-patches/target/rocketmq-" + version + "-patched";
        Map<String, String> first = hashes(root.resolve(dist));
        Map<String, String> second = hashes(copy.resolve(dist));
        assertTrue(first.keySet().stream().anyMatch(k -> k.startsWith("lib/rocketmq-broker-")), first.keySet().toString());
        assertEquals(first.keySet(), second.keySet(), "same files");
        List<String> differ = new ArrayList<>();
        for (String f : first.keySet()) {
            if (!first.get(f).equals(second.get(f))) {
                differ.add(f);
            }
        }
        assertEquals(List.of(), differ, "files whose bytes differ between two builds of the same sources");

        // The client delivery (ClientDelivery): its jars, POMs, README and sums.
        String client = "broker-patches/target/rocketmq-" + version + "-client-patched";
        Map<String, String> firstClient = allFiles(root.resolve(client));
        assertTrue(firstClient.keySet().stream().anyMatch(k -> k.startsWith("pom/")), firstClient.keySet().toString());
        assertEquals(firstClient, allFiles(copy.resolve(client)), "the client delivery, file by file");
    }

    /** Every file under a folder by relative path, with its sha256. */
    private static Map<String, String> allFiles(Path dir) throws IOException {
        Map<String, String> h = new TreeMap<>();
        try (Stream<Path> s = Files.walk(dir)) {
            for (Path f : (Iterable<Path>) s::iterator) {
                if (Files.isRegularFile(f)) {
                    h.put(dir.relativize(f).toString(), PatchRecord.sha256(Files.readAllBytes(f)));
                }
            }
        }
        return h;
    }

    /** lib/, tools/, record/, SHA256SUMS and PATCHES.md by relative path, with their sha256. */
    private static Map<String, String> hashes(Path dist) throws IOException {
        Map<String, String> h = new TreeMap<>();
        for (String dir : new String[] {"lib", "tools", "record"}) {
            try (Stream<Path> s = Files.list(dist.resolve(dir))) {
                for (Path f : (Iterable<Path>) s::iterator) {
                    h.put(dir + "/" + f.getFileName(), PatchRecord.sha256(Files.readAllBytes(f)));
                }
            }
        }
        for (String f : new String[] {"SHA256SUMS", "PATCHES.md"}) {
            h.put(f, PatchRecord.sha256(Files.readAllBytes(dist.resolve(f))));
        }
        return h;
    }

    /** The parent pom, every module's pom (Maven reads them all) and the sources of codec, local-cluster and broker-patches. */
    private static void copySources(Path root, Path copy) throws IOException {
        Files.createDirectories(copy);
        Files.copy(root.resolve("pom.xml"), copy.resolve("pom.xml"));
        try (Stream<Path> modules = Files.list(root)) {
            for (Path m : (Iterable<Path>) modules::iterator) {
                if (Files.isRegularFile(m.resolve("pom.xml"))) {
                    Files.createDirectories(copy.resolve(m.getFileName()));
                    Files.copy(m.resolve("pom.xml"), copy.resolve(m.getFileName()).resolve("pom.xml"));
                }
            }
        }
        // local-cluster too: broker-patches' tests depend on it, and nothing of this project is installed in ~/.m2.
        for (String module : new String[] {"codec", "local-cluster", "broker-patches"}) {
            Path src = root.resolve(module).resolve("src");
            try (Stream<Path> files = Files.walk(src)) {
                for (Path f : (Iterable<Path>) files::iterator) {
                    Path to = copy.resolve(module).resolve(root.resolve(module).relativize(f).toString());
                    if (Files.isDirectory(f)) {
                        Files.createDirectories(to);
                    } else {
                        Files.copy(f, to);
                        if (Files.isExecutable(f)) {
                            to.toFile().setExecutable(true, false);
                        }
                    }
                }
            }
        }
    }

    private static String mvn() {
        String home = System.getProperty("maven.home");
        if (home != null && new File(home, "bin/mvn").canExecute()) {
            return new File(home, "bin/mvn").getPath();
        }
        for (String dir : System.getenv().getOrDefault("PATH", "").split(File.pathSeparator)) {
            File f = new File(dir, "mvn");
            if (f.canExecute()) {
                return f.getPath();
            }
        }
        throw new IllegalStateException("mvn is neither in maven.home nor on the PATH: the second build needs it");
    }
}
