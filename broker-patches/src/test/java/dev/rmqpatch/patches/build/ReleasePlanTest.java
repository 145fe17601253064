package dev.rmqpatch.patches.build;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.ByteArrayOutputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.jar.Attributes;
import java.util.jar.JarOutputStream;
import java.util.jar.Manifest;

import dev.rmqpatch.patches.Patch;
import dev.rmqpatch.patches.Patches;
import dev.rmqpatch.patches.Release;
import dev.rmqpatch.patches.ReleaseVariant;
import dev.rmqpatch.patches.StartupReport;
import dev.rmqpatch.patches.cli.PlanRelease;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Release recognition of a lib/ folder and the dry-run plan of the patches against it (docs/releases.md). */
class ReleasePlanTest {

    @TempDir
    Path tmp;

    private static void assume490() {
        assumeTrue(TestJars.rocketmqVersion().equals("4.9.0"), "the patches are written for 4.9.0's jars");
    }

    @Test
    void recognisesStock490FromMqVersionAndTheJars() throws Exception {
        assume490();
        ReleaseLib lib = ReleaseLib.of(TestJars.stockLib(tmp.resolve("lib")).toFile());
        assertEquals("4.9.0", lib.release());
        assertEquals("V4_9_0", lib.mqVersionConstant());
        assertTrue(lib.rocketmqJars().containsKey("rocketmq-common"));
    }

    @Test
    void everyPatchAppliesAsWrittenOnStock490() throws Exception {
        assume490();
        ReleasePlan plan = ReleasePlan.of(ReleaseLib.of(TestJars.stockLib(tmp.resolve("lib")).toFile()), Patches.all(),
            StartupReport.edits());
        for (ReleasePlan.Outcome o : plan.outcomes()) {
            assertTrue(o.applies(), o.label + ": " + o.kind + ": " + o.reason);
        }
        assertEquals(Patches.all().size(), plan.applying());
        assertTrue(plan.startupReport().applies(), plan.startupReport().reason);
    }

    @Test
    void cliPrintsTheTableWritesJsonAndExitsZeroOn490() throws Exception {
        assume490();
        Path lib = TestJars.stockLib(tmp.resolve("lib"));
        Path json = tmp.resolve("plan.json");
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        int rc = PlanRelease.run(new String[] {"plan", lib.toString(), "--json", json.toString()},
            new PrintStream(out, true, "UTF-8"), new PrintStream(new ByteArrayOutputStream()));
        String table = out.toString("UTF-8");
        assertEquals(0, rc, table);
        assertTrue(table.contains("RocketMQ 4.9.0 (MQVersion V4_9_0"), table);
        assertTrue(table.contains(Patches.all().size() + " applied, 0 already upstream, 0 need a variant, 0 refused by witness; "
            + "start-up report applied"), table);
        String j = new String(Files.readAllBytes(json), StandardCharsets.UTF_8);
        assertTrue(j.contains("\"release\": \"4.9.0\"") && j.contains("\"refusedByWitness\": 0")
            && j.contains("\"applied\": " + Patches.all().size()), j);
    }

    @Test
    void cliUsageAndUnrecognisedFolders() throws Exception {
        PrintStream quiet = new PrintStream(new ByteArrayOutputStream());
        assertEquals(0, PlanRelease.run(new String[] {"--help"}, quiet, quiet));
        assertEquals(2, PlanRelease.run(new String[0], quiet, quiet));
        assertEquals(2, PlanRelease.run(new String[] {"apply", tmp.toString()}, quiet, quiet));
        assertEquals(2, PlanRelease.run(new String[] {"plan", tmp.resolve("absent").toString()}, quiet, quiet));
        assertEquals(2, PlanRelease.run(new String[] {"plan", tmp.toString(), "--json"}, quiet, quiet));
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        assertEquals(3, PlanRelease.run(new String[] {"plan", tmp.toString()}, quiet, new PrintStream(err, true, "UTF-8")));
        assertTrue(err.toString("UTF-8").contains("no RocketMQ jars"), err.toString("UTF-8"));
    }

    @Test
    void mixedReleasesAreAnError() throws Exception {
        assume490();
        Path lib = TestJars.stockLib(tmp.resolve("lib"));
        // A 4.9.0 broker jar under a 4.9.7 name: the names disagree.
        Files.move(lib.resolve("rocketmq-broker-4.9.0.jar"), lib.resolve("rocketmq-broker-4.9.7.jar"));
        ReleaseLib.NotRecognised e = assertThrows(ReleaseLib.NotRecognised.class, () -> ReleaseLib.of(lib.toFile()));
        assertTrue(e.getMessage().contains("mixed RocketMQ releases") && e.getMessage().contains("rocketmq-broker-4.9.7.jar"),
            e.getMessage());
    }

    @Test
    void noRocketmqCommonAndRewrittenJarsAreErrors() throws Exception {
        assume490();
        Path lib = TestJars.stockLib(tmp.resolve("lib"));
        Files.delete(lib.resolve("rocketmq-common-4.9.0.jar"));
        ReleaseLib.NotRecognised e = assertThrows(ReleaseLib.NotRecognised.class, () -> ReleaseLib.of(lib.toFile()));
        assertTrue(e.getMessage().contains("no rocketmq-common jar"), e.getMessage());

        Path patched = Files.createDirectories(tmp.resolve("patched"));
        Manifest mf = new Manifest();
        mf.getMainAttributes().put(Attributes.Name.MANIFEST_VERSION, "1.0");
        mf.getMainAttributes().putValue(JarPatcher.MANIFEST_ATTRIBUTE, "P2 properties-codec");
        try (OutputStream os = Files.newOutputStream(patched.resolve("rocketmq-common-4.9.0.jar"));
             JarOutputStream jos = new JarOutputStream(os, mf)) {
            jos.flush();
        }
        e = assertThrows(ReleaseLib.NotRecognised.class, () -> ReleaseLib.of(patched.toFile()));
        assertTrue(e.getMessage().contains("rewritten by rmqpatch"), e.getMessage());
    }

    /**
     * 4.9.7's remoting decodes a header from the ByteBuf (headerDecode(ByteBuf, int, SerializeType)) and reads the
     * ROCKETMQ binary header with rocketMQProtocolDecode(ByteBuf, int) (javap -p of rocketmq-remoting-4.9.7.jar shows
     * only those): P5 and S6 are refused for a changed descriptor, P5 also because the codec's JSON reader calls the
     * rocketMQProtocolDecode(byte[]) 4.9.7 no longer has. P1's entry hook still fits, but 4.9.7's
     * SendMessageRequestHeaderV2 has a field n and, from RpcRequestHeader, bname (javap, and the -sources jar's
     * encode/decode write and read them) that the send codecs do not name: P1 and P4 are refused by the plan's
     * header check, with their edits fitting. P6's edit fits (headerEncode still calls RemotingSerializable.encode).
     */
    @Test
    void release497RefusesP5AndS6ForChangedDescriptorsAndTheSendCodecsForNewFields() throws Exception {
        Path jars = Path.of(System.getProperty("rmqpatch.release497.lib", "target/release-4.9.7"));
        assumeTrue(Files.isDirectory(jars), "no " + jars + " (the pom's release-4.9.7-jars copy)");
        ReleaseLib lib = ReleaseLib.of(jars.toFile());
        assertEquals("4.9.7", lib.release());
        ReleasePlan plan = ReleasePlan.of(lib, Patches.all(), StartupReport.edits());
        Map<String, ReleasePlan.Outcome> byId = new LinkedHashMap<>();
        for (ReleasePlan.Outcome o : plan.outcomes()) {
            byId.put(o.id, o);
        }
        assertEquals(ReleasePlan.DESCRIPTOR_CHANGED, byId.get("P5").kind, byId.get("P5").reason);
        assertTrue(byId.get("P5").reason.contains(
            "(Lio/netty/buffer/ByteBuf;ILorg/apache/rocketmq/remoting/protocol/SerializeType;)"), byId.get("P5").reason);
        // The codec's JSON reader, which P5's hook reaches, calls rocketMQProtocolDecode(byte[]): gone in 4.9.4+.
        assertTrue(byId.get("P5").reason.contains("would fail to link: the release has no method "
            + "org.apache.rocketmq.remoting.protocol.RocketMQSerializable.rocketMQProtocolDecode([B)"), byId.get("P5").reason);
        assertEquals(ReleasePlan.DESCRIPTOR_CHANGED, byId.get("S6").kind, byId.get("S6").reason);
        for (String id : new String[] {"P1", "P4", "P10", "P11"}) {
            ReleasePlan.Outcome o = byId.get(id);
            assertEquals(ReleasePlan.MIRRORED_MEMBER, o.kind, id + ": " + o.reason);
            assertTrue(o.appliesAlone, id + ": its edits fit 4.9.7's RemotingCommand");
        }
        assertTrue(byId.get("P1").reason.contains("SendMessageRequestHeaderV2 has field(s) [n, bname (from RpcRequestHeader)]"),
            byId.get("P1").reason);
        assertTrue(byId.get("P10").reason.contains("PullMessageRequestHeader has field(s) [bname (from RpcRequestHeader)]"),
            byId.get("P10").reason);
        assertTrue(byId.get("P6").applies(), byId.get("P6").reason);
        // With the broker's jar: P3's two call sites are the two branches of 4.9.3's WAIT check (docs/releases.md).
        assertEquals(ReleasePlan.WITNESS_COUNT, byId.get("P3").kind, byId.get("P3").reason);
        assertTrue(byId.get("S1").applies(), byId.get("S1").reason);
    }


    /**
     * P4's and P11's 4.9.7 variants: applied on 4.9.7 (HeaderMirrors finds every field of 4.9.7's headers named by
     * RpcHeaderEncoders, CodecLinks finds getBname), while the codecs as written stay refused there (above); on 4.9.0
     * the same variants would not link (its headers have no getBname), so the witnesses keep them off it.
     */
    @Test
    void theHeaderEncodeVariantsApplyOn497AndWouldNotLinkOn490() throws Exception {
        List<Patch> variants = new ArrayList<>();
        for (Patch p : Patches.all()) {
            if (p.id().equals("P4") || p.id().equals("P11")) {
                variants.add(ReleaseVariant.of(p, Release.V4_9_7));
            }
        }
        assertEquals(2, variants.size());
        ReleasePlan on497 = ReleasePlan.of(ReleaseLib.of(ReleaseLibs.release497().toFile()), variants, StartupReport.edits());
        for (ReleasePlan.Outcome o : on497.outcomes()) {
            assertTrue(o.applies(), o.id + ": " + o.reason);
        }
        assumeTrue(TestJars.rocketmqVersion().equals("4.9.0"), "the stock jars on the class path are 4.9.0's");
        ReleasePlan on490 = ReleasePlan.of(ReleaseLib.of(TestJars.stockLib(tmp.resolve("lib490")).toFile()), variants,
            StartupReport.edits());
        for (ReleasePlan.Outcome o : on490.outcomes()) {
            assertEquals(ReleasePlan.CODEC_LINK, o.kind, o.id + ": " + o.reason);
            assertTrue(o.reason.contains("getBname"), o.reason);
        }
    }
}
