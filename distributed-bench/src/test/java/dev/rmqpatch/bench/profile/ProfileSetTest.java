package dev.rmqpatch.bench.profile;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The "where the broker's CPU goes" table from broker-4.9.0-tuned.collapsed: a hand-written sample of 1,000 samples in
 * async-profiler's collapsed format, shaped like a 4.9.0 broker's send path (netty decode and fastjson, the reflective
 * header codec, the properties split, the CommitLog append, epoll and TCP in the kernel, logback, G1 and C2, thread-pool
 * wake-ups), with round counts per area so every share is known exactly.
 */
class ProfileSetTest {
    @TempDir
    Path dir;

    private static CollapsedStacks sample() throws Exception {
        try (InputStream in = ProfileSetTest.class.getResourceAsStream("broker-4.9.0-tuned.collapsed")) {
            return CollapsedStacks.parse(new InputStreamReader(in, StandardCharsets.UTF_8));
        }
    }

    @Test
    void everySampleLandsInExactlyOneArea() throws Exception {
        ProfileSummary s = ProfileSummary.of(sample());
        assertEquals(1000, s.samples());
        assertEquals(0.150, s.areaShare(CpuArea.REMOTING_JSON), 1e-9);
        assertEquals(0.070, s.areaShare(CpuArea.REFLECTION), 1e-9);
        assertEquals(0.045, s.areaShare(CpuArea.PROPERTIES), 1e-9);
        assertEquals(0.085, s.areaShare(CpuArea.STORE), 1e-9, "the page fault and the ext4 write under store frames are the store's");
        assertEquals(0.320, s.areaShare(CpuArea.NETTY_IO), 1e-9, "epoll and TCP in the kernel are I/O");
        assertEquals(0.010, s.areaShare(CpuArea.LOGGING), 1e-9, "a logback file write is logging, not I/O");
        assertEquals(0.110, s.areaShare(CpuArea.GC_JIT), 1e-9, "an allocation slow path inside the CommitLog is GC");
        assertEquals(0.210, s.areaShare(CpuArea.OTHER), 1e-9, "thread-pool wake-ups belong to no area");
        double total = 0;
        for (CpuArea a : CpuArea.values()) {
            total += s.areaShare(a);
        }
        assertEquals(1.0, total, 1e-9);
    }

    @Test
    void theFrameNearestTheLeafDecides() {
        assertEquals(CpuArea.REFLECTION, CpuArea.of(List.of("org/apache/rocketmq/remoting/protocol/RemotingCommand.decode_[j]",
            "org/apache/rocketmq/remoting/protocol/RemotingCommand.decodeCommandCustomHeader_[j]", "java/lang/reflect/Field.set_[i]")));
        assertEquals(CpuArea.REMOTING_JSON, CpuArea.of(List.of("org/apache/rocketmq/remoting/protocol/RemotingCommand.decodeCommandCustomHeader_[j]",
            "dev/rmqpatch/codec/hook/RemotingCommandHooks.decodeHeader_[j]", "dev/rmqpatch/codec/header/SendMessageRequestHeaderV2Codec.decode_[j]",
            "java/lang/Long.parseLong_[i]")), "the patched header codec is remoting work, not reflection");
        assertEquals(CpuArea.PROPERTIES, CpuArea.of(List.of("org/apache/rocketmq/broker/processor/SendMessageProcessor.asyncSendMessage_[j]",
            "dev/rmqpatch/codec/properties/MessageProperties.decode_[j]")));
        assertEquals(CpuArea.OTHER, CpuArea.of(List.of("java/lang/Thread.run_[j]", "finish_task_switch.isra.0_[k]")));
        assertEquals(CpuArea.STORE, CpuArea.of(List.of("org/apache/rocketmq/store/MappedFile.flush_[j]", "java/nio/MappedByteBuffer.force_[j]",
            "msync_[k]")), "a file sync is the store's, not I/O");
    }

    @Test
    void topSelfTimeMergesCompiledAndInlinedCopies() throws Exception {
        CollapsedStacks s = sample();
        s.add("java/lang/Thread.run_[j];java/util/concurrent/ConcurrentHashMap.get_[j]", 5);
        ProfileSummary summary = ProfileSummary.of(s);
        List<String> top = summary.topSelf(3);
        assertEquals("finish_task_switch.isra.0 [kernel]", top.get(0), "the epoll and futex wake-ups: 350 of 1,005");
        assertEquals(350 / 1005.0, summary.selfShare(top.get(0)), 1e-9);
        assertEquals(35 / 1005.0, summary.selfShare("java.util.concurrent.ConcurrentHashMap.get"), 1e-9);
    }

    @Test
    void tableShowsAreasSideBySideAddingUpAndTheBaselinesTopMethods() throws Exception {
        CollapsedStacks patched = CollapsedStacks.parse("java/lang/Thread.run_[j];dev/rmqpatch/codec/header/SendMessageRequestHeaderV2Codec.decode_[j] 30\n"
            + "java/lang/Thread.run_[j];org/apache/rocketmq/store/CommitLog.asyncPutMessage_[j] 70\n");
        ProfileSet set = new ProfileSet("broker", List.of("4.9.0-tuned", "4.9.0-patched"), "4.9.0-tuned",
            new SamplingEvent("cpu", "perf events are allowed"), "test windows");
        set.add("4.9.0-tuned", sample(), 4);
        set.add("4.9.0-patched", patched, 4);
        set.write(dir);

        String table = set.table();
        assertTrue(table.startsWith("where the broker's CPU goes"), table);
        assertTrue(table.contains("cpu sampling every 1ms"), table);
        assertTrue(table.matches("(?s).*remoting and JSON\\s+15\\.0%\\s+30\\.0%.*"), table);
        assertTrue(table.matches("(?s).*store and CommitLog\\s+8\\.5%\\s+70\\.0%.*"), table);
        assertTrue(table.matches("(?s).*\\ntotal\\s+100\\.0%\\s+100\\.0%.*"), table);
        assertTrue(table.contains("flame-4.9.0-tuned.html") && table.contains("flame-4.9.0-patched.html"), table);
        assertTrue(table.matches("(?s).*top 15 self-time methods of 4\\.9\\.0-tuned.*finish_task_switch\\.isra\\.0 \\[kernel\\]\\s+35\\.0%\\s+0\\.0%.*"), table);

        ProfileSet.VariantProfile tuned = set.variantViews().get("4.9.0-tuned");
        assertEquals(1000, tuned.samples);
        assertEquals(4, tuned.windows);
        assertEquals(1.0, tuned.areas.values().stream().mapToDouble(Double::doubleValue).sum(), 1e-4);
        assertEquals(List.of("remoting and JSON", "reflection", "properties codec", "store and CommitLog", "netty and kernel I/O", "logging",
            "GC and JIT", "other"), List.copyOf(tuned.areas.keySet()));
        ProfileSet.Comparison c = set.comparison();
        assertEquals(15, c.baselineTopSelf.size(), "the sample has 18 distinct leaf methods");
        assertEquals(0.35, c.baselineTopSelf.get(0).shares().get("4.9.0-tuned"), 1e-9);

        String html = Files.readString(dir.resolve(tuned.flameGraph));
        assertTrue(html.startsWith("<!DOCTYPE html>"), html.substring(0, 50));
        assertTrue(html.contains("broker CPU, 4.9.0-tuned"), "titled with the variant");
        assertTrue(Files.readString(dir.resolve(tuned.collapsedStacks)).contains("MapDeserializer.parseMap_[j]"), "merged stacks kept");
    }

    @Test
    void aVariantWithoutSamplesHasNoFlameGraphAndDashesInTheTable() throws Exception {
        ProfileSet set = new ProfileSet("client", List.of("a", "b"), "a", new SamplingEvent("itimer", "no perf events"), "test");
        set.add("a", sample(), 1);
        set.write(dir);
        assertNull(set.variantViews().get("b").flameGraph);
        assertTrue(set.table().contains("b: no samples"), set.table());
        assertTrue(set.table().startsWith("where the client's CPU goes"), "a client comparison's profiles are its clients': " + set.table());
    }

    @Test
    void malformedLinesAreRejectedWithTheirNumber() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> CollapsedStacks.parse("a;b 3\na;b three\n"));
        assertTrue(e.getMessage().contains("line 2"), e.getMessage());
    }
}
