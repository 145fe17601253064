package dev.rmqpatch.bench.agent;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.rmqpatch.bench.delivery.BodyStamp;
import dev.rmqpatch.bench.delivery.SequenceSet;
import dev.rmqpatch.bench.delivery.StreamSets;
import dev.rmqpatch.bench.protocol.AgentResult;
import dev.rmqpatch.bench.protocol.PrepareRequest;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The load loop over a fake driver of each kind the real ones are: senders as threads that may block in a send (the
 * stock client's), and senders on event loops resumed by the driver when an answer comes (the wire client's). Routing,
 * switching, pausing, rate schedules, stamps and the counts are the loop's, so they are tested here once for both.
 */
@Timeout(60)
class LoadLoopTest {
    private static final int SENDERS = 4;

    private LoadLoop loop;
    private FakeDriver driver;

    @AfterEach
    void tearDown() {
        if (loop != null) {
            loop.abort();
        }
    }

    /** One send as the driver saw it. */
    private static final class Sent {
        final int sender;
        final int target;
        final int pair;
        final int stream;
        final long sequence;
        final long intendedNanos;

        Sent(Sender s) {
            this.sender = s.index;
            this.target = s.target;
            this.pair = s.pair;
            this.stream = s.stream;
            this.sequence = s.sequence;
            this.intendedNanos = s.intendedNanos;
        }
    }

    /** Answers every send after a millisecond: inline on the sender's thread, or from its executor like the wire client. */
    private static final class FakeDriver implements LoadDriver {
        final ScheduledExecutorService loops;
        final List<Sent> log = new ArrayList<>();
        final AtomicInteger inFlight = new AtomicInteger();
        volatile int failEvery;
        volatile boolean crash;
        LoadLoop loop;
        boolean closed;

        FakeDriver(boolean eventLoops) {
            this.loops = eventLoops ? Executors.newScheduledThreadPool(2) : null;
        }

        @Override
        public int senders() {
            return SENDERS;
        }

        @Override
        public ScheduledExecutorService eventLoops() {
            return loops;
        }

        @Override
        public void start(LoadLoop loop, Sender[] senders, long beginNanos) {
            this.loop = loop;
        }

        @Override
        public boolean send(Sender s) throws InterruptedException {
            if (crash) {
                throw new IllegalStateException("driver bug");
            }
            if (loop.stamped()) {
                loop.stamp(s);
            }
            int n;
            synchronized (log) {
                log.add(new Sent(s));
                n = log.size();
            }
            boolean fails = failEvery > 0 && n % failEvery == 0;
            s.sentNanos = System.nanoTime();
            loop.sent(s);
            if (loops == null) {
                Thread.sleep(1);
                answer(s, fails);
                return true;
            }
            inFlight.incrementAndGet();
            loops.schedule(() -> {
                answer(s, fails);
                inFlight.decrementAndGet();
                loop.next(s);
            }, 1, TimeUnit.MILLISECONDS);
            return false;
        }

        private void answer(Sender s, boolean fails) {
            if (fails) {
                loop.failed(s, "FakeError", () -> "every " + failEvery + "th send fails");
            } else {
                loop.acked(s, "SEND_OK", System.nanoTime());
            }
        }

        @Override
        public void switched() {
        }

        @Override
        public long drain(long deadlineMs) {
            while (inFlight.get() > 0 && System.currentTimeMillis() < deadlineMs) {
                Thread.onSpinWait();
            }
            return inFlight.get();
        }

        @Override
        public void describe(AgentResult result) {
            result.client = "fake";
        }

        @Override
        public String failure() {
            return null;
        }

        @Override
        public void close() {
            closed = true;
            if (loops != null) {
                loops.shutdownNow();
            }
        }

        List<Sent> sends() {
            synchronized (log) {
                return new ArrayList<>(log);
            }
        }

        long count(int target, int pair) {
            return sends().stream().filter(s -> s.target == target && s.pair == pair).count();
        }

        long count(int target) {
            return sends().stream().filter(s -> s.target == target).count();
        }
    }

    private static PrepareRequest request(int... topicsPerTarget) {
        PrepareRequest r = new PrepareRequest();
        r.runId = "loop";
        r.mode = "sync";
        r.threads = SENDERS;
        r.messageSize = 100;
        r.producersPerTopic = 1;
        r.sendTimeoutMs = 1000;
        r.targets = new ArrayList<>();
        for (int t = 0; t < topicsPerTarget.length; t++) {
            List<String> topics = new ArrayList<>();
            for (int i = 0; i < topicsPerTarget[t]; i++) {
                topics.add("t" + t + "-topic-" + i);
            }
            r.targets.add(new PrepareRequest.Target("127.0.0.1:" + (9876 + t), topics));
        }
        return r;
    }

    private void start(PrepareRequest r, boolean eventLoops) {
        driver = new FakeDriver(eventLoops);
        loop = new LoadLoop("loop-test", r, driver);
        loop.start(0);
    }

    /** Waits for {@code condition}; a generous guard, not a timing check, turns a loop that never gets there into a failure. */
    private static void await(String what, BooleanSupplier condition) throws InterruptedException {
        long deadline = System.currentTimeMillis() + 30_000;
        while (!condition.getAsBoolean()) {
            if (System.currentTimeMillis() > deadline) {
                fail("never got " + what);
            }
            Thread.sleep(5);
        }
    }

    @ParameterizedTest(name = "event loops: {0}")
    @ValueSource(booleans = {false, true})
    void switchesMoveEverySenderAndAPauseHoldsThemTillTheNext(boolean eventLoops) throws Exception {
        start(request(2, 3), eventLoops);
        // Several targets: paused until the first switch.
        assertTrue(loop.paused());
        loop.switchTarget(1, 0);
        await("every pair of target 1", () -> driver.count(1, 0) >= 3 && driver.count(1, 1) >= 3 && driver.count(1, 2) >= 3);
        assertEquals(0, driver.count(0), "nothing went out before the first switch, nor to the other target");
        for (Sent s : driver.sends()) {
            assertEquals(s.sender % 3, s.pair, "with more senders than pairs each keeps to pair sender % pairs");
            assertEquals(-1, s.intendedNanos, "unlimited");
        }

        loop.switchTarget(0, 0);
        long toTarget1 = driver.count(1);
        await("every pair of target 0", () -> driver.count(0, 0) >= 3 && driver.count(0, 1) >= 3);
        assertTrue(driver.count(1) <= toTarget1 + SENDERS, "after the switch a sender finishes at most the send it had picked");

        loop.switchTarget(LoadLoop.PAUSE, 0);
        long beforePause = driver.sends().size();
        Thread.sleep(200);
        assertTrue(driver.sends().size() <= beforePause + SENDERS, "a pause holds every sender");
        assertTrue(loop.paused());

        long toTarget1Paused = driver.count(1);
        loop.switchTarget(1, 0);
        await("target 1 again", () -> driver.count(1) >= toTarget1Paused + 3 * SENDERS);

        AgentResult r = loop.stop("host", 1);
        assertTrue(driver.closed);
        assertEquals("fake", r.client);
        assertEquals(SENDERS, r.threads);
        assertEquals(0, r.total.inFlight);
        assertTrue(r.total.balanced(), "outcomes add up to sends");
        assertEquals(driver.sends().size(), r.total.sent);
        assertEquals(r.total.sent, r.total.acked);
        assertNull(r.sendDelayHistogram, "no rate, no send delay");
        assertNull(r.streamTopics, "no stamps");
    }

    @ParameterizedTest(name = "event loops: {0}")
    @ValueSource(booleans = {false, true})
    void morePairsThanSendersStampEachPairsOwnStreamAndNameItsTopic(boolean eventLoops) throws Exception {
        PrepareRequest r = request(10);
        r.targets = null;
        r.namesrv = "127.0.0.1:9876";
        r.topics = request(10).targets.get(0).topics;
        r.stampBodies = true;
        r.agentIndex = 2;
        start(r, eventLoops);
        assertFalse(loop.paused(), "one target: sending from the start");
        await("every pair", () -> {
            for (int k = 0; k < 10; k++) {
                if (driver.count(0, k) < 3) {
                    return false;
                }
            }
            return true;
        });
        AgentResult result = loop.stop("host", 1);
        List<Sent> sends = driver.sends();
        StreamSets acked = StreamSets.decode(result.ackedSequences);
        assertEquals(sends.size(), acked.size(), "every acknowledged send is in its stream");
        for (Sent s : sends) {
            assertEquals(s.pair % SENDERS, s.sender, "each pair has one sender");
            assertEquals(BodyStamp.stream(2, s.pair), s.stream, "the stream is the pair's");
            assertTrue(acked.stream(s.stream).contains(s.sequence));
        }
        assertEquals(10, result.streamTopics.size());
        for (int k = 0; k < 10; k++) {
            int stream = BodyStamp.stream(2, k);
            assertEquals("t0-topic-" + k, result.streamTopics.get(Integer.toString(stream)));
            SequenceSet sequences = acked.stream(stream);
            assertEquals(driver.count(0, k), sequences.size());
            assertTrue(sequences.contains(0) && sequences.contains(sequences.size() - 1), "sequences 0.. without a gap");
        }
    }

    @ParameterizedTest(name = "event loops: {0}")
    @ValueSource(booleans = {false, true})
    void aRateScheduleTimesEverySendAndFailuresCountByKind(boolean eventLoops) throws Exception {
        PrepareRequest r = request(1);
        r.targets = null;
        r.namesrv = "127.0.0.1:9876";
        r.topics = List.of("rated");
        r.ratePerSecond = 500;
        start(r, eventLoops);
        driver.failEvery = 4;
        loop.beginMeasurement();
        int before = driver.sends().size();
        await("sends in the window", () -> driver.sends().size() >= before + 40);
        AgentResult result = loop.stop("host", 1);
        for (Sent s : driver.sends()) {
            assertTrue(s.intendedNanos != -1, "every send has its intended time");
        }
        assertNotNull(result.sendDelayHistogram);
        assertTrue(result.window.balanced() && result.total.balanced());
        assertTrue(result.window.failed > 0, "failures in the window");
        assertEquals(Map.of("FakeError", result.window.failed), result.byError);
        assertEquals("every 4th send fails", result.errorSamples.get("FakeError"));
        assertEquals(result.window.acked, result.byStatus.get("SEND_OK"));
    }

    @ParameterizedTest(name = "event loops: {0}")
    @ValueSource(booleans = {false, true})
    void aSenderThatThrowsFailsTheRun(boolean eventLoops) throws Exception {
        PrepareRequest r = request(1);
        start(r, eventLoops);
        assertNull(loop.failure());
        driver.crash = true;
        loop.switchTarget(0, 0);
        await("the failure", () -> loop.failure() != null);
        assertTrue(loop.failure().contains("driver bug"), loop.failure());
        assertFalse(loop.running(), "the senders stop");
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(ints = {-2, 2})
    void aSwitchToATargetThatDoesNotExistIsRefused(int target) {
        start(request(1, 1), false);
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
            () -> loop.switchTarget(target, 0));
        assertTrue(e.getMessage().contains("prepared targets: 0..1"), e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> loop.switchTarget(0, -1));
    }
}
