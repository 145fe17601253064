package dev.rmqpatch.stall;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import dev.rmqpatch.cluster.Jdk8Home;
import dev.rmqpatch.cluster.LocalCluster;
import org.apache.rocketmq.client.exception.MQBrokerException;
import org.apache.rocketmq.client.exception.MQClientException;
import org.apache.rocketmq.client.producer.DefaultMQProducer;
import org.apache.rocketmq.client.producer.SendStatus;
import org.apache.rocketmq.common.message.Message;
import org.apache.rocketmq.common.protocol.ResponseCode;
import org.junit.jupiter.api.Test;

/**
 * P39 on a real patched 4.9.0 broker (JDK 8 where there is one), against the same broker with
 * {@code -Drmqpatch.disable=P39} (stock's 10 ms timer; every other patch the same).
 *
 * <p>One CommitLog append stalls {@link #STALL_MS} ms (the stall agent) under sync sends from {@link #SENDERS}
 * connections: the one send thread waits in the put lock, the others' sends queue, and the fast-failure check answers them SYSTEM_BUSY once they have waited
 * {@code waitTimeMillsInSendQueue} (200 ms), or at once when the page cache is busy (the lock held over 1 s). Checked on
 * both: some sends answered SYSTEM_BUSY during the stall, every send started in it answered within
 * {@link #ANSWER_MS} ms (without the check they would wait for the stall's end), the check's [TIMEOUT_CLEAN_QUEUE]
 * answers at most {@link #CHECK_LATE_MS} ms past the queue's limit by the broker's own count ("period in queue"),
 * none timed out. The sends start 1.5 s after the broker has booted: the check's first run is 1 s after its start
 * (stock's delay), and a stall before it is answered by nothing on either variant. P30 is off in both
 * runs, so that no send runs on an IO thread and every one queues as on stock.
 */
class FastFailureStallIT {

    static final int STALL_MS = 2_000;
    static final int SENDERS = 4;
    /** Far under the stall: a send answered this soon was answered by the check, not by the stall's end. */
    static final long ANSWER_MS = 900;
    static final String TOPIC = "FastFailureStallIT";
    /** Stock's waitTimeMillsInSendQueue: a queued send is answered [TIMEOUT_CLEAN_QUEUE] once it has waited this long. */
    static final long SEND_QUEUE_LIMIT_MS = 200;
    /**
     * How much later than that limit the check may answer (stock's timer runs every 10 ms; this allows a loaded
     * machine's scheduling, not a check that rests through a quiet interval while requests wait).
     */
    static final long CHECK_LATE_MS = 150;
    static final Pattern TIMEOUT_CLEAN = Pattern.compile("TIMEOUT_CLEAN_QUEUE (\\d+)ms");
    /** Past the check's first run, 1 s after the broker's start; the stall then comes at the first send after it. */
    static final long CHECK_START_MS = 1_500;

    record Sent(long start, long ms, String outcome) {
    }

    @Test
    void sendsQueuedBehindAStalledPutAreAnsweredBusyAsWithStocksTimer() throws Exception {
        Path jar = Paths.get(System.getProperty("rmqpatch.stall.agent.jar"));
        assertTrue(Files.isRegularFile(jar), "the stall agent jar " + jar + " (mvn package builds it)");
        Path dist = Paths.get(System.getProperty("rmqpatch.dist.patched"));
        Run off = run("P39 off", dist, jar, "-Drmqpatch.disable=P30,P39");
        Run on = run("P39 on", dist, jar, "-Drmqpatch.disable=P30");
        String report = "FastFailureStallIT: " + off.line() + "\nFastFailureStallIT: " + on.line();
        System.out.println(report);

        for (Run r : List.of(off, on)) {
            assertEquals(1, r.stalls.size(), r.name + ": the stall happened under load: " + report);
            List<Sent> inStall = r.inStall();
            assertTrue(inStall.size() >= SENDERS, r.name + ": sends during the stall: " + report);
            assertTrue(r.count("BUSY") > 0, r.name + ": sends answered SYSTEM_BUSY by the check: " + report);
            assertEquals(0, r.count("TIMEOUT") + r.count("OTHER"), r.name + ": every send answered: " + report);
            for (Sent s : inStall) {
                assertTrue(s.ms <= ANSWER_MS, r.name + ": a send started " + (s.start - r.stalls.get(0).at)
                    + " ms into the stall took " + s.ms + " ms (" + s.outcome + "): " + report);
                Matcher m = TIMEOUT_CLEAN.matcher(s.outcome);
                if (m.find()) {
                    assertTrue(Long.parseLong(m.group(1)) <= SEND_QUEUE_LIMIT_MS + CHECK_LATE_MS, r.name + ": the check "
                        + "answered a request " + m.group(1) + " ms after it was queued, over the send queue's "
                        + SEND_QUEUE_LIMIT_MS + " ms limit by more than " + CHECK_LATE_MS + " ms: " + report);
                }
            }
        }
    }

    record Run(String name, List<StallLine> stalls, List<Sent> sends) {
        List<Sent> inStall() {
            StallLine s = stalls.get(0);
            List<Sent> out = new ArrayList<>();
            for (Sent x : sends) {
                // started while the stall had more than ANSWER_MS to go: only the check could answer it that soon
                if (x.start >= s.at && x.start + ANSWER_MS < s.at + s.ms) {
                    out.add(x);
                }
            }
            return out;
        }

        long count(String outcome) {
            return sends.stream().filter(s -> s.outcome.startsWith(outcome)).count();
        }

        String otherExample() {
            return sends.stream().filter(s -> s.outcome.startsWith("OTHER")).findFirst().map(s -> ": " + s.outcome).orElse("");
        }

        String line() {
            return name + ": stall "
                + (stalls.isEmpty() ? "none" : stalls.get(0).ms + " ms on " + stalls.get(0).thread) + "; sends "
                + sends.size() + " (ok " + count("OK") + ", busy " + count("BUSY") + ", timeouts " + count("TIMEOUT")
                + ", other " + count("OTHER") + otherExample() + "), started in the stall " + (stalls.isEmpty() ? 0 : inStall().size())
                + ", longest of those " + (stalls.isEmpty() ? -1
                    : inStall().stream().mapToLong(Sent::ms).max().orElse(-1)) + " ms" + (stalls.isEmpty() ? ""
                    : " (each: ms into the stall +ms taken " + inStall().stream().map(x -> (x.start - stalls.get(0).at)
                        + "+" + x.ms + " " + x.outcome).collect(Collectors.joining(", ")) + ")");
        }
    }

    private Run run(String name, Path dist, Path agentJar, String switches) throws Exception {
        Path dir = Files.createTempDirectory("rmqpatch-fast-failure-it-");
        LocalCluster.Spec spec = new LocalCluster.Spec();
        spec.dist = dist;
        spec.workDir = dir;
        spec.brokerHeap = "512m";
        spec.namesrvHeap = "256m";
        spec.javaHome = Jdk8Home.forTests();
        spec.stopGrace = java.time.Duration.ZERO;
        spec.overrides.put("sendMessageThreadPoolNums", "1");
        spec.overrides.put("mappedFileSizeCommitLog", "67108864");
        spec.brokerJvmOptions.add("-XX:MaxDirectMemorySize=256m");
        spec.brokerJvmOptions.add(switches);
        // One stall, at the first append 2 s after the broker's JVM started: the topic's first send, 1.5 s after the
        // broker has booted, is later.
        spec.brokerJvmOptions.add("-javaagent:" + agentJar + "=point=append,millis=" + STALL_MS
            + ",everyMillis=600000,afterMillis=2000,times=1");
        AtomicBoolean stop = new AtomicBoolean();
        ConcurrentLinkedQueue<Sent> sends = new ConcurrentLinkedQueue<>();
        List<DefaultMQProducer> producers = new ArrayList<>();
        List<Thread> threads = new ArrayList<>();
        try (LocalCluster cluster = LocalCluster.start(spec)) {
            try {
                // The fast-failure check starts 1 s after the broker does (stock's first delay, P39's too): a stall
                // before that is answered by nothing until the check's first run, on either variant.
                Thread.sleep(CHECK_START_MS);
                for (int i = 0; i < SENDERS; i++) {
                    DefaultMQProducer p = new DefaultMQProducer("fast-failure-it-" + i);
                    p.setNamesrvAddr(cluster.namesrvAddr());
                    p.setInstanceName("fast-failure-it-" + i); // its own connection
                    p.setSendMsgTimeout(10_000);
                    p.setRetryTimesWhenSendFailed(0);
                    p.start();
                    producers.add(p);
                }
                for (DefaultMQProducer p : producers) {
                    threads.add(new Thread(() -> sendLoop(p, stop, sends), "fast-failure-it-send"));
                }
                threads.forEach(Thread::start);
                long deadline = System.currentTimeMillis() + 60_000;
                List<StallLine> stalls = List.of();
                while (stalls.isEmpty() && System.currentTimeMillis() < deadline) {
                    Thread.sleep(100);
                    stalls = StallLine.parse(Files.readString(cluster.master().output(),
                        java.nio.charset.StandardCharsets.ISO_8859_1));
                }
                Thread.sleep(STALL_MS + 1_000L); // the stall over and its sends answered
                stop.set(true);
                for (Thread t : threads) {
                    t.join(15_000);
                }
                return new Run(name, stalls, new ArrayList<>(sends));
            } finally {
                stop.set(true);
                producers.forEach(DefaultMQProducer::shutdown);
            }
        } finally {
            deleteTree(dir);
        }
    }

    /** "[TIMEOUT_CLEAN_QUEUE] 207ms": which check answered, and how long the request had waited in its queue then. */
    private static String busyRemark(Throwable e) {
        String m = String.valueOf(e.getMessage()) + " " + (e.getCause() != null ? e.getCause().getMessage() : "");
        Matcher r = Pattern.compile("\\[([A-Z_]+)\\].*?period in queue: (\\d+)ms").matcher(m);
        return r.find() ? " [" + r.group(1) + " " + r.group(2) + "ms]" : "";
    }

    private static void sendLoop(DefaultMQProducer p, AtomicBoolean stop, ConcurrentLinkedQueue<Sent> out) {
        byte[] body = new byte[128];
        while (!stop.get()) {
            long start = System.currentTimeMillis();
            long t0 = System.nanoTime();
            String outcome;
            try {
                outcome = p.send(new Message(TOPIC, body)).getSendStatus() == SendStatus.SEND_OK ? "OK" : "OTHER";
            } catch (MQBrokerException e) {
                outcome = e.getResponseCode() == ResponseCode.SYSTEM_BUSY ? "BUSY" + busyRemark(e) : "OTHER " + e.getResponseCode();
            } catch (MQClientException e) {
                // no retries: the client wraps the broker's answer, keeping its code
                outcome = e.getResponseCode() == ResponseCode.SYSTEM_BUSY ? "BUSY" + busyRemark(e)
                    : String.valueOf(e.getMessage()).contains("timeout") ? "TIMEOUT" : "OTHER " + e;
            } catch (org.apache.rocketmq.remoting.exception.RemotingTimeoutException e) {
                outcome = "TIMEOUT";
            } catch (Exception e) {
                outcome = e.getMessage() != null && e.getMessage().contains("timeout") ? "TIMEOUT" : "OTHER " + e;
            }
            out.add(new Sent(start, (System.nanoTime() - t0) / 1_000_000L, outcome));
            try {
                Thread.sleep(20);
            } catch (InterruptedException e) {
                return;
            }
        }
    }

    private static void deleteTree(Path dir) throws IOException {
        if (!Files.exists(dir)) {
            return;
        }
        try (Stream<Path> s = Files.walk(dir)) {
            s.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        }
    }
}
