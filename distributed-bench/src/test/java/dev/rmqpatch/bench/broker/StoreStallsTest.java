package dev.rmqpatch.bench.broker;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** --stall's value, the agent flag built from it, and the stall lines read back from a broker's output. */
class StoreStallsTest {

    private static String error(String text) {
        return assertThrows(IllegalArgumentException.class, () -> StoreStalls.Plan.parse(text)).getMessage();
    }

    @Test
    void aPlanIsPointMillisAndEvery() {
        StoreStalls.Plan p = StoreStalls.Plan.parse("append:500/2000");
        assertEquals(new StoreStalls.Plan("append", 500, 2000), p);
        assertEquals("append:500/2000", p.label());
        assertEquals("-javaagent:/r/stall.jar=point=append,millis=500,everyMillis=2000,afterMillis=22000",
            p.jvmOption(Path.of("/r/stall.jar"), 22_000));
        for (String point : List.of("allocate", "flush", "replica")) {
            assertEquals(point, StoreStalls.Plan.parse(point + ":1/2").point());
        }
        assertTrue(p.jvmOption(Path.of("/j"), 9_999_999).endsWith("afterMillis=3600000"), "the agent's limit");
    }

    @Test
    void wrongValuesSayWhatIsExpected() {
        for (String bad : List.of("", "append", "append:500", "append:500/", ":500/2000", "append 500/2000", "append:-1/2000",
            "append:5e2/2000", "APPEND:500/2000", "append:500/2000,x=1", "append:500/2000 -Dx=1")) {
            assertTrue(error(bad).contains("POINT:MILLIS/EVERY_MILLIS"), bad + ": " + error(bad));
        }
        assertEquals("--stall: unknown point 'commit' (one of append, allocate, flush, replica, dispatch)", error("commit:500/2000"));
        assertTrue(error("append:0/2000").contains("MILLIS must be between 1 and 600000, not 0"));
        assertTrue(error("append:600001/3000000").contains("not 600001"));
        assertTrue(error("append:500/500").contains("EVERY_MILLIS must be longer than MILLIS (500)"));
        assertTrue(error("append:500/3600001").contains("at most 3600000"));
    }

    @Test
    void theJarMustExistAtAPlainPath(@TempDir Path root) throws Exception {
        String missing = assertThrows(IllegalArgumentException.class, () -> StoreStalls.agentJar(root)).getMessage();
        assertTrue(missing.contains("run mvn package first") && missing.contains(StoreStalls.BUILD), missing);
        Path jar = root.resolve(StoreStalls.JAR);
        Files.createDirectories(jar.getParent());
        Files.writeString(jar, "");
        assertEquals(jar.toAbsolutePath().normalize(), StoreStalls.agentJar(root));

        Path spaced = Files.createDirectories(root.resolve("a b"));
        Files.createDirectories(spaced.resolve(StoreStalls.JAR).getParent());
        Files.writeString(spaced.resolve(StoreStalls.JAR), "");
        assertTrue(assertThrows(IllegalArgumentException.class, () -> StoreStalls.agentJar(spaced)).getMessage()
            .contains("JAVA_OPT"));
    }

    @Test
    void stallLinesAreReadWithTheirThreadsKind(@TempDir Path dir) throws Exception {
        Path out = dir.resolve("broker.out");
        Files.writeString(out, String.join("\n",
            "[rmqpatch-stall] armed: point=append,millis=500,everyMillis=2000,afterMillis=22000",
            "The broker[broker-a, 127.0.0.1:10911] boot success.",
            "[rmqpatch-stall] append #1 at 1764321234567 for 500 ms on thread NettyServerNIOSelector_3_2",
            "[rmqpatch-stall] append #2 at 1764321236567 for 500 ms on thread SendMessageThread_1",
            "noise [rmqpatch-stall] append #9 at 1 for 1 ms on thread not-at-line-start",
            "[rmqpatch-stall] append #3 at 1764321238600 for 500 ms on thread SendMessageThread_2",
            "[rmqpatch-stall] flush #4 at 1764321240600 for 500 ms on thread FlushRealTimeService",
            ""));
        StoreStalls.Record r = new StoreStalls.Record(StoreStalls.Plan.parse("append:500/2000"), 22_000);
        r.read(out, 2);
        r.read(dir.resolve("absent.out"), 3);
        assertEquals(4, r.count);
        assertEquals(1, r.onIoThreads);
        assertEquals(2, r.onSendExecutor);
        assertEquals(1, r.onOtherThreads);
        StoreStalls.Stall first = r.stalls.get(0);
        assertEquals(1, first.n);
        assertEquals(1764321234567L, first.at);
        assertEquals(500, first.ms);
        assertEquals("NettyServerNIOSelector_3_2", first.thread);
        assertEquals("netty-io", first.threadGroup);
        assertEquals(2, first.round);
        assertEquals("send", r.stalls.get(2).threadGroup);
    }

    @Test
    void failedSendsAreSplitIntoAnsweredTimedOutAndOther() {
        StoreStalls.Record r = new StoreStalls.Record(StoreStalls.Plan.parse("append:500/2000"), 0);
        Map<String, Long> kinds = Map.of(
            "BrokerResponse(code=2 SYSTEM_BUSY [TIMEOUT_CLEAN_QUEUE])", 5L,       // wire client
            "MQClientException(code=2)/MQBrokerException(code=2)", 3L,            // stock client, retries used up
            "MQClientException/RemotingTimeoutException", 2L,
            "RemotingTooMuchRequestException", 1L,                                // stock client's "call timeout"
            "Timeout", 4L,                                                        // wire client
            "ConnectionLost", 7L);
        r.countSendFailures(kinds);
        r.countSendFailures(kinds);
        assertEquals(8, r.sendsAnsweredWithError, "counted once: a recount replaces");
        assertEquals(7, r.sendsTimedOut);
        assertEquals(7, r.sendsFailedOtherwise);
        assertEquals("  4.9.0-tuned: 0 stall(s): 0 on IO threads, 0 on send-executor threads, 0 on others; sends answered with an "
            + "error 8, timed out 7, failed otherwise 7", r.line("4.9.0-tuned"));
    }

    @Test
    void theSummaryHasAHeadingAndALinePerVariant() {
        StoreStalls.Plan p = StoreStalls.Plan.parse("flush:100/1000");
        Map<String, StoreStalls.Record> m = StoreStalls.records(List.of("a", "b"), p, 22_000);
        String s = StoreStalls.summary(m, "in the windows");
        assertTrue(s.startsWith("Store stalls (--stall flush:100/1000, on each master broker from 22 s after its start; sends: in the windows):"), s);
        assertEquals(3, s.split("\\R").length, s);
        assertEquals("", StoreStalls.summary(StoreStalls.records(List.of("a"), null, 0), "x"), "nothing without --stall");
    }
}
