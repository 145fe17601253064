package dev.rmqpatch.agent;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.File;
import java.io.IOException;
import java.nio.file.Path;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Function;
import java.util.jar.JarFile;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;

import dev.rmqpatch.patches.Patch;
import dev.rmqpatch.patches.PatchTargets;
import dev.rmqpatch.patches.Patches;
import dev.rmqpatch.patches.build.LibPatch;
import dev.rmqpatch.patches.build.ReleaseSelection;
import dev.rmqpatch.patches.transform.MethodEdit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.objectweb.asm.ClassReader;
import org.objectweb.asm.ClassWriter;
import org.objectweb.asm.tree.ClassNode;
import org.objectweb.asm.tree.MethodNode;

/**
 * The built agent jar against the build-time patched jars, without starting a JVM: given the stock 4.9.0 class files,
 * the agent's plan rewrites exactly the classes the patcher rewrote, to the same bytes (both read with expanded frames,
 * edit, and write with only max stack and locals recomputed: nothing is recomputed that could differ). And it refuses
 * 4.9.1, and jars that rmqpatch rewrote already; and a class that does not fit a patch loses that patch whole. On a
 * later release (4.9.3, 4.9.4, 4.9.7, 4.9.8) it rewrites exactly what patch-lib rewrites in that release's lib/, to
 * the same bytes.
 */
class AgentJarIT {

    private static ShadedAgent agent;

    @BeforeAll
    static void load() throws Exception {
        agent = new ShadedAgent();
    }

    @AfterAll
    static void close() throws IOException {
        agent.close();
    }

    @Test
    void agentRewritesTheSameClassesToTheSameBytesAsThePatchedJars() throws Exception {
        ShadedAgent.Plan plan = agent.plan(ShadedAgent.classFiles(ShadedAgent.stockLib()));
        assertNull(plan.refusal());
        assertEquals("V4_9_0", plan.version());
        assertEquals(Map.of(), plan.dropped());
        List<String> all = Patches.all().stream().map(PatchTargets::label).toList();
        assertEquals(all, plan.appliedLabels());

        Map<String, byte[]> rewritten = rewrittenByTheBuild();
        assertTrue(plan.patched().keySet().containsAll(rewritten.keySet()),
            "every class the patched jars rewrote, the agent rewrites: " + rewritten.keySet());
        Function<String, byte[]> patchedJars = ShadedAgent.classFiles(ShadedAgent.patchedLib());
        List<String> differ = new ArrayList<>();
        plan.patched().forEach((name, bytes) -> {
            if (!java.util.Arrays.equals(bytes, patchedJars.apply(name))) {
                differ.add(name);
            }
        });
        assertEquals(List.of(), differ, "classes whose bytes differ between the agent and the patched jars");
        System.out.printf("[AgentJarIT] %d classes, identical to the patched jars' (%d patches)%n", plan.patched().size(),
            plan.appliedLabels().size());
    }

    /** Every class entry that differs between a stock jar and the patched jar of the same name (what the build changed). */
    private static Map<String, byte[]> rewrittenByTheBuild() throws IOException {
        Map<String, byte[]> out = new TreeMap<>();
        for (File stockJar : ShadedAgent.jars(ShadedAgent.stockLib())) {
            File patchedJar = ShadedAgent.patchedLib().resolve(stockJar.getName()).toFile();
            assertTrue(patchedJar.isFile(), "patched lib/ has " + stockJar.getName());
            try (ZipFile stock = new ZipFile(stockJar); ZipFile patched = new ZipFile(patchedJar)) {
                for (ZipEntry e : java.util.Collections.list(stock.entries())) {
                    if (!e.getName().endsWith(".class")) {
                        continue;
                    }
                    byte[] before = stock.getInputStream(e).readAllBytes();
                    byte[] after = patched.getInputStream(patched.getEntry(e.getName())).readAllBytes();
                    if (!java.util.Arrays.equals(before, after)) {
                        out.put(e.getName().substring(0, e.getName().length() - ".class".length()), after);
                    }
                }
            }
        }
        assertTrue(out.size() > 20, "the patched jars rewrite the target classes: " + out.keySet());
        return out;
    }

    /**
     * A later release (4.9.3, 4.9.4, 4.9.7, 4.9.8): the agent applies what the release declares (as written or as its
     * variant), to the same bytes as patch-lib writes into a copy of that release's lib/, and names every other patch
     * with its declaration. (4.9.8's lib/ exists where its broker was built, -Drmqpatch.stock498.skip=false, as in CI.)
     */
    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"4.9.3", "4.9.4", "4.9.7", "4.9.8"})
    void onALaterReleaseTheAgentRewritesWhatPatchLibRewrites(String release, @TempDir Path tmp) throws Exception {
        Path stock = ShadedAgent.stockLib(release);
        assumeTrue(java.nio.file.Files.isDirectory(stock), "no " + stock);
        File out = tmp.resolve("lib").toFile();
        ReleaseSelection selection = LibPatch.write(stock.toFile(), ShadedAgent.jars(ShadedAgent.codecLib()).get(0), out);
        ShadedAgent.Plan plan = agent.plan(ShadedAgent.classFiles(stock));
        assertNull(plan.refusal());
        assertEquals("V" + release.replace('.', '_'), plan.version());
        assertEquals(Map.of(), plan.dropped());
        assertEquals(selection.applied().stream().map(PatchTargets::label).toList(), plan.appliedLabels());
        List<String> notApplied = selection.rows().stream().filter(r -> r.outcome != ReleaseSelection.Outcome.APPLIED)
            .map(r -> r.label).toList();
        assertEquals(notApplied, List.copyOf(plan.notForRelease().keySet()));
        plan.notForRelease().values().forEach(why -> assertTrue(why.startsWith("already upstream: ")
            || why.startsWith("needs variant: "), why));

        Map<String, byte[]> rewritten = new TreeMap<>();
        Function<String, byte[]> stockFiles = ShadedAgent.classFiles(stock);
        Function<String, byte[]> patchLibFiles = ShadedAgent.classFiles(out.toPath());
        for (File jar : ShadedAgent.jars(out.toPath())) {
            try (ZipFile z = new ZipFile(jar)) {
                for (ZipEntry e : java.util.Collections.list(z.entries())) {
                    String n = e.getName();
                    if (!n.endsWith(".class") || n.startsWith("dev/rmqpatch/") || n.startsWith("META-INF/")) {
                        continue;
                    }
                    String name = n.substring(0, n.length() - ".class".length());
                    byte[] before = stockFiles.apply(name);
                    byte[] after = z.getInputStream(e).readAllBytes();
                    if (before != null && !java.util.Arrays.equals(before, after)) {
                        rewritten.put(name, after);
                    }
                }
            }
        }
        assertTrue(rewritten.size() > 5, "patch-lib rewrote " + release + "'s classes: " + rewritten.keySet());
        assertEquals(rewritten.keySet(), new java.util.TreeSet<>(plan.patched().keySet()),
            "the classes the agent rewrites are the ones patch-lib rewrote");
        List<String> differ = new ArrayList<>();
        plan.patched().forEach((name, bytes) -> {
            if (!java.util.Arrays.equals(bytes, patchLibFiles.apply(name))) {
                differ.add(name);
            }
        });
        assertEquals(List.of(), differ, "classes whose bytes differ between the agent and patch-lib's " + release + " lib/");
        System.out.printf("[AgentJarIT] %s: %d patches on %d classes, identical to patch-lib's%n", release,
            plan.appliedLabels().size(), plan.patched().size());
    }

    @Test
    void rocketmq491IsRefusedAsAWhole() throws Exception {
        ShadedAgent.Plan plan = agent.plan(ShadedAgent.classFiles(ShadedAgent.rocketmq491()));
        assertEquals("V4_9_1", plan.version());
        assertNotNull(plan.refusal());
        assertTrue(plan.refusal().contains("RocketMQ V4_9_1 is not a release the patches declare themselves for "
            + "(4.9.0, 4.9.3, 4.9.4, 4.9.7, 4.9.8)"), plan.refusal());
        assertEquals(Map.of(), plan.patched());
    }

    @Test
    void jarsRewrittenByRmqpatchAreRefused() throws Exception {
        ShadedAgent.Plan plan = agent.plan(ShadedAgent.classFiles(ShadedAgent.patchedLib()));
        assertNotNull(plan.refusal());
        assertTrue(plan.refusal().contains("rewritten jars are in use"), plan.refusal());
        assertEquals(Map.of(), plan.patched());
    }

    @Test
    void noRocketMqVersionNoPatches() throws Exception {
        Function<String, byte[]> stock = ShadedAgent.classFiles(ShadedAgent.stockLib());
        ShadedAgent.Plan plan = agent.plan(name -> name.equals(PatchPlan.MQ_VERSION) ? null : stock.apply(name));
        assertNotNull(plan.refusal());
        assertTrue(plan.refusal().contains("cannot tell the RocketMQ version"), plan.refusal());
    }

    /**
     * RemotingCommand.decodeCommandCustomHeader renamed, as a changed RocketMQ build might have it: the patches that
     * edit that method (P1, P10) fail to match and are dropped whole; every other patch still applies, and no class
     * carries a dropped patch's edit.
     */
    @Test
    void aClassThatDoesNotFitLosesThePatchesThatDoNotFitWhole() throws Exception {
        String owner = "org/apache/rocketmq/remoting/protocol/RemotingCommand";
        Function<String, byte[]> stock = ShadedAgent.classFiles(ShadedAgent.stockLib());
        byte[] changed = renameMethod(stock.apply(owner), "decodeCommandCustomHeader", "decodeHeaderRenamed");
        ShadedAgent.Plan plan = agent.plan(name -> name.equals(owner) ? changed : stock.apply(name));
        assertNull(plan.refusal());

        List<String> expectDropped = new ArrayList<>();
        for (Patch p : Patches.all()) {
            for (MethodEdit e : p.edits()) {
                if (e.target().owner.equals(owner) && e.target().name.equals("decodeCommandCustomHeader")) {
                    expectDropped.add(PatchTargets.label(p));
                    break;
                }
            }
        }
        assertEquals(List.of("P1 header-decode", "P10 pull-header-decode"), expectDropped, "what this test renames");
        assertEquals(expectDropped, new ArrayList<>(plan.dropped().keySet()));
        plan.dropped().values().forEach(why -> assertTrue(why.contains("decodeCommandCustomHeader"), why));
        for (String label : expectDropped) {
            assertTrue(!plan.appliedLabels().contains(label), label);
        }
        assertEquals(Patches.all().size() - 2, plan.appliedLabels().size());
        String patched = new String(plan.patched().get(owner), StandardCharsets.ISO_8859_1);
        assertTrue(!patched.contains("decodePullCustomHeader"), "P10's hook is not called");
        assertTrue(patched.contains("makePullHeaderToNet"), "P11 (same class, fits) still applies");
    }

    private static byte[] renameMethod(byte[] cls, String from, String to) {
        ClassNode node = new ClassNode();
        new ClassReader(cls).accept(node, 0);
        for (MethodNode m : node.methods) {
            if (m.name.equals(from)) {
                m.name = to;
            }
        }
        ClassWriter w = new ClassWriter(0);
        node.accept(w);
        return w.toByteArray();
    }

    /** What goes into a JDK 8 broker: every class of the agent jar, the nested codec jar's too, is Java 8 (52) or older. */
    @Test
    void everyClassInTheAgentJarIsJava8() throws Exception {
        List<String> newer = new ArrayList<>();
        int classes = 0;
        try (JarFile jar = new JarFile(ShadedAgent.jar().toFile())) {
            assertEquals("dev.rmqpatch.agent.Agent", jar.getManifest().getMainAttributes().getValue("Premain-Class"));
            for (ZipEntry e : java.util.Collections.list(jar.entries())) {
                byte[] b = jar.getInputStream(e).readAllBytes();
                if (e.getName().endsWith(".class")) {
                    classes++;
                    assertTrue(!e.getName().startsWith("org/objectweb/"), "ASM is relocated: " + e.getName());
                    assertTrue(!e.getName().startsWith("dev/rmqpatch/codec/"), "the codec is not on the class path: " + e.getName());
                    if (major(b) > 52) {
                        newer.add(e.getName() + " " + major(b));
                    }
                } else if (e.getName().equals(CodecAccess.CODEC_RESOURCE)) {
                    try (java.util.jar.JarInputStream in = new java.util.jar.JarInputStream(new java.io.ByteArrayInputStream(b))) {
                        for (ZipEntry c = in.getNextEntry(); c != null; c = in.getNextEntry()) {
                            if (c.getName().endsWith(".class")) {
                                classes++;
                                byte[] cb = in.readAllBytes();
                                if (major(cb) > 52) {
                                    newer.add(e.getName() + "!" + c.getName() + " " + major(cb));
                                }
                            }
                        }
                    }
                }
            }
        }
        assertTrue(classes > 100, "classes checked: " + classes);
        assertEquals(List.of(), newer);
    }

    private static int major(byte[] cls) {
        return ((cls[6] & 0xff) << 8) | (cls[7] & 0xff);
    }
}
