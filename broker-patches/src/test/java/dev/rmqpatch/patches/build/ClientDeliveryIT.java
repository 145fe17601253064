package dev.rmqpatch.patches.build;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Date;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import javax.xml.parsers.DocumentBuilderFactory;

import dev.rmqpatch.patches.PatchTargets;
import dev.rmqpatch.patches.Patches;
import dev.rmqpatch.patches.cli.ListPatches;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;

/**
 * The client delivery the build wrote (target/rocketmq-4.9.0-client-patched/ and target/client-maven-repo/), checked
 * against what it must be, derived here independently: which jars from the patch classes' targets
 * ({@link PatchTargets#labelsByJar}), the POMs against stock 4.9.0's dependency lists as Maven resolves them
 * ({@code mvn dependency:tree} of org.apache.rocketmq:rocketmq-client:4.9.0, written out below), the jars byte for byte
 * against the patched distribution's, the sums, and the installation into a local repository.
 */
class ClientDeliveryIT {

    private static final String V = "4.9.0";
    private static final String OURS = ClientDelivery.GROUP_ID;

    /**
     * Stock 4.9.0's dependencies that reach an application, per RocketMQ artifact of the client (compile scope; test,
     * provided and optional ones left out): "groupId:artifactId:version[ -excludedGroup:excludedArtifact]".
     */
    private static final Map<String, List<String>> STOCK = new LinkedHashMap<>();

    static {
        STOCK.put("rocketmq-client", List.of("org.apache.rocketmq:rocketmq-common:4.9.0 -io.netty:netty-tcnative",
            "org.apache.commons:commons-lang3:3.4", "commons-codec:commons-codec:1.9"));
        STOCK.put("rocketmq-common", List.of("org.apache.rocketmq:rocketmq-remoting:4.9.0",
            "org.apache.commons:commons-lang3:3.4", "commons-validator:commons-validator:1.7"));
        STOCK.put("rocketmq-remoting", List.of("com.alibaba:fastjson:1.2.76", "io.netty:netty-all:4.0.42.Final",
            "org.apache.rocketmq:rocketmq-logging:4.9.0"));
        STOCK.put("rocketmq-logging", List.of());
    }

    @TempDir
    Path tmp;

    private static Path folder() {
        return Path.of(System.getProperty("rmqpatch.client.folder"));
    }

    private static String ourVersion() {
        return ClientDelivery.ourVersion(V, System.getProperty("rmqpatch.project.version"));
    }

    /** The artifacts whose jars a patch rewrites, from the patch classes alone. */
    private static Map<String, String> rewrittenByPatchTargets() {
        Map<String, String> out = new LinkedHashMap<>();
        PatchTargets.labelsByJar(Patches.all()).forEach((artifact, labels) -> {
            if (STOCK.containsKey(artifact)) {
                out.put(artifact, String.join(", ", new TreeSet<>(labels)));
            }
        });
        return out;
    }

    /** Rewritten ones and whatever stock RocketMQ artifact of the client depends on one of them, transitively. */
    private static Set<String> expectedOurs() {
        Set<String> ours = new HashSet<>(rewrittenByPatchTargets().keySet());
        for (boolean grew = true; grew; ) {
            grew = false;
            for (Map.Entry<String, List<String>> e : STOCK.entrySet()) {
                if (!ours.contains(e.getKey()) && e.getValue().stream().anyMatch(d -> ours.stream()
                    .anyMatch(o -> d.startsWith("org.apache.rocketmq:" + o + ":")))) {
                    grew = ours.add(e.getKey());
                }
            }
        }
        return ours;
    }

    @Test
    void folderHoldsTheRewrittenClientJarsAndTheCodecAsTheBrokerRunsThem() throws Exception {
        Set<String> ours = expectedOurs();
        assertTrue(ours.contains("rocketmq-client"), "the client itself is always delivered when any of its jars is rewritten");
        Path lib = folder().resolve("lib");
        Set<String> expectedFiles = new TreeSet<>();
        ours.forEach(a -> expectedFiles.add(a + "-" + V + ".jar"));
        Path patchedLib = Path.of(System.getProperty("rmqpatch.dist.patched")).resolve("lib");
        try (Stream<Path> s = Files.list(patchedLib)) {
            s.map(p -> p.getFileName().toString()).filter(n -> n.startsWith("rmqpatch-codec-")).forEach(expectedFiles::add);
        }
        assertEquals(expectedFiles, names(lib));
        for (String name : expectedFiles) {
            assertArrayEquals(Files.readAllBytes(patchedLib.resolve(name)), Files.readAllBytes(lib.resolve(name)),
                name + " is the patched distribution's, byte for byte");
        }
        Map<String, String> rewritten = rewrittenByPatchTargets();
        for (String a : ours) {
            String manifest = dev.rmqpatch.patches.cli.ListPatches.patchesOf(lib.resolve(a + "-" + V + ".jar").toFile());
            if (rewritten.containsKey(a)) {
                assertEquals(rewritten.get(a), manifest == null ? null
                    : String.join(", ", new TreeSet<>(List.of(manifest.split(",\\s*")))), a);
            } else {
                assertEquals(null, manifest, a + " is delivered unchanged");
            }
        }
        String readme = Files.readString(folder().resolve("README.md"));
        for (String a : ours) {
            assertTrue(readme.contains("`lib/" + a + "-" + V + ".jar`"), readme);
        }
        assertTrue(readme.contains("<version>" + ourVersion() + "</version>"), readme);
    }

    /** The folder's own tool lists the patches of its lib/ and finds the codec and every security patch its jars carry. */
    @Test
    void rmqpatchInfoListsTheFoldersPatches() throws Exception {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int rc = ListPatches.run(new String[] {"--list-patches", folder().resolve("lib").toString()},
            new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8));
        String text = out.toString(StandardCharsets.UTF_8) + err.toString(StandardCharsets.UTF_8);
        assertEquals(0, rc, text);
        for (String a : rewrittenByPatchTargets().keySet()) {
            assertTrue(text.contains(a + "-" + V + ".jar: "), text);
        }
        assertTrue(Files.isRegularFile(folder().resolve("tools/rmqpatch-info.jar")));
    }

    @Test
    void sumsListEveryFileOfTheFolder() throws Exception {
        List<String> lines = Files.readAllLines(folder().resolve("SHA256SUMS"));
        Set<String> listed = new TreeSet<>();
        for (String line : lines) {
            String[] parts = line.split("  ", 2);
            assertEquals(PatchRecord.sha256(folder().resolve(parts[1]).toFile()), parts[0], line);
            listed.add(parts[1]);
        }
        Set<String> files = new TreeSet<>();
        for (String dir : List.of("lib", "pom", "tools")) {
            names(folder().resolve(dir)).forEach(n -> files.add(dir + "/" + n));
        }
        assertEquals(files, listed);
        assertEquals(lines, Files.readAllLines(folder().resolveSibling(folder().getFileName() + ".SHA256SUMS")));
    }

    /** Each POM: stock's dependencies at stock's versions, the delivered siblings ours, the codec where rewritten. */
    @Test
    void pomsAreStocksDependenciesWithOurSiblingsAndTheCodec() throws Exception {
        Set<String> ours = expectedOurs();
        Set<String> rewritten = rewrittenByPatchTargets().keySet();
        Path repo = Path.of(System.getProperty("rmqpatch.client.repo"));
        Set<String> inRepo = new TreeSet<>(names(repo.resolve(OURS.replace('.', '/'))));
        assertEquals(new TreeSet<>(ours), inRepo);
        for (String a : ours) {
            Path dir = repo.resolve(OURS.replace('.', '/')).resolve(a).resolve(ourVersion());
            Path pom = dir.resolve(a + "-" + ourVersion() + ".pom");
            assertArrayEquals(Files.readAllBytes(folder().resolve("pom").resolve(pom.getFileName())), Files.readAllBytes(pom));
            assertArrayEquals(Files.readAllBytes(folder().resolve("lib").resolve(a + "-" + V + ".jar")),
                Files.readAllBytes(dir.resolve(a + "-" + ourVersion() + ".jar")));
            Element project = DocumentBuilderFactory.newInstance().newDocumentBuilder().parse(pom.toFile()).getDocumentElement();
            assertEquals(OURS + ":" + a + ":" + ourVersion(), text(project, "groupId") + ":" + text(project, "artifactId")
                + ":" + text(project, "version"));
            List<String> expected = new ArrayList<>();
            for (String d : STOCK.get(a)) {
                String[] gav = d.split(" ")[0].split(":");
                boolean sibling = gav[0].equals("org.apache.rocketmq") && ours.contains(gav[1]);
                expected.add(sibling ? d.replace(gav[0] + ":" + gav[1] + ":" + gav[2], OURS + ":" + gav[1] + ":" + ourVersion()) : d);
            }
            if (rewritten.contains(a)) {
                expected.add("dev.rmqpatch:rmqpatch-codec:" + System.getProperty("rmqpatch.project.version"));
            }
            assertEquals(expected, dependencies(project), a + "'s POM");
        }
    }

    @Test
    void installWritesWhatMavenInstallWould() throws Exception {
        Path repo = Path.of(System.getProperty("rmqpatch.client.repo"));
        Path local = tmp.resolve("m2");
        // An artifact already there with another version keeps it in its metadata.
        Path other = ClientDelivery.versionDir(local.toFile(), "rocketmq-client", "4.9.0-rmqpatch-0.0.1").toPath();
        Files.createDirectories(other);
        Files.writeString(other.getParent().resolve("maven-metadata-local.xml"),
            "<metadata><versioning><versions><version>4.9.0-rmqpatch-0.0.1</version></versions></versioning></metadata>");
        List<String> installed = ClientDelivery.install(repo.toFile(), local.toFile(), new Date(0));
        assertEquals(expectedOurs().stream().map(a -> OURS + ":" + a + ":" + ourVersion()).collect(Collectors.toCollection(TreeSet::new)),
            new TreeSet<>(installed));
        for (String a : expectedOurs()) {
            Path dir = ClientDelivery.versionDir(local.toFile(), a, ourVersion()).toPath();
            assertTrue(Files.isRegularFile(dir.resolve(a + "-" + ourVersion() + ".jar")), dir.toString());
            assertTrue(Files.isRegularFile(dir.resolve(a + "-" + ourVersion() + ".pom")), dir.toString());
            String meta = Files.readString(dir.getParent().resolve("maven-metadata-local.xml"));
            assertTrue(meta.contains("<version>" + ourVersion() + "</version>"), meta);
            if (ourVersion().endsWith("-SNAPSHOT")) {
                String snap = Files.readString(dir.resolve("maven-metadata-local.xml"));
                assertTrue(snap.contains("<localCopy>true</localCopy>") && snap.contains("<value>" + ourVersion() + "</value>"), snap);
            }
        }
        String clientMeta = Files.readString(other.getParent().resolve("maven-metadata-local.xml"));
        assertTrue(clientMeta.contains("<version>4.9.0-rmqpatch-0.0.1</version>"), clientMeta);
        assertFalse(Files.exists(local.resolve("org")), "nothing but our group is written");
    }

    private static List<String> dependencies(Element project) {
        List<String> out = new ArrayList<>();
        NodeList deps = project.getElementsByTagName("dependency");
        for (int i = 0; i < deps.getLength(); i++) {
            Element d = (Element) deps.item(i);
            StringBuilder sb = new StringBuilder(text(d, "groupId") + ":" + text(d, "artifactId") + ":" + text(d, "version"));
            String scope = text(d, "scope");
            if (scope != null) {
                sb.append(" (").append(scope).append(")");
            }
            NodeList ex = d.getElementsByTagName("exclusion");
            for (int j = 0; j < ex.getLength(); j++) {
                Element x = (Element) ex.item(j);
                sb.append(" -").append(text(x, "groupId")).append(":").append(text(x, "artifactId"));
            }
            out.add(sb.toString());
        }
        return out;
    }

    /** The text of a direct child element, or null. */
    private static String text(Element parent, String name) {
        for (org.w3c.dom.Node n = parent.getFirstChild(); n != null; n = n.getNextSibling()) {
            if (n instanceof Element e && e.getTagName().equals(name)) {
                return e.getTextContent().trim();
            }
        }
        return null;
    }

    private static Set<String> names(Path dir) throws Exception {
        try (Stream<Path> s = Files.list(dir)) {
            return s.map(p -> p.getFileName().toString()).collect(Collectors.toCollection(TreeSet::new));
        }
    }
}
