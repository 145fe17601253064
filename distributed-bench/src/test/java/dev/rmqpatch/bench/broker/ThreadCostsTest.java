package dev.rmqpatch.bench.broker;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ThreadCostsTest {

    private static final String STATUS = "Name:\tx\nvoluntary_ctxt_switches:\t%d\nnonvoluntary_ctxt_switches:\t%d\n";

    private static final String IO = "rchar: 1\nwchar: 2\nsyscr: %d\nsyscw: %d\nread_bytes: 0\nwrite_bytes: 0\n";

    private static ThreadSnapshot.Task task(String name, long ticks, long voluntary, long involuntary) {
        return task(name, ticks, voluntary, involuntary, voluntary * 2, voluntary * 3);
    }

    private static ThreadSnapshot.Task task(String name, long ticks, long voluntary, long involuntary, long reads, long writes) {
        String stat = "1 (" + name + ") S 1 1 1 0 -1 0 0 0 0 0 " + ticks + " 0 0 0 20 0 1 0 100 0 0";
        return ThreadSnapshot.parse(stat, String.format(STATUS, voluntary, involuntary), reads < 0 ? null : String.format(IO, reads, writes));
    }

    @Test
    void aTaskIsReadFromItsStatLineAndStatusFile() {
        ThreadSnapshot.Task t = ThreadSnapshot.parse("77 (Netty (x) y) S 1 1 1 0 -1 0 0 0 0 0 30 12 0 0 20 0 1 0 100 0 0",
            String.format(STATUS, 5, 2), String.format(IO, 7, 3));
        assertEquals("Netty (x) y", t.name);
        assertEquals(7, t.readCalls);
        assertEquals(3, t.writeCalls);
        assertEquals(-1, ThreadSnapshot.parse("77 (x) S 1 1 1 0 -1 0 0 0 0 0 30 12 0 0 20 0 1 0 100 0 0", String.format(STATUS, 5, 2), null)
            .readCalls, "no io file: unknown");
        assertEquals(ProcStat.ticksToNanos(42), t.cpuNanos);
        assertEquals(5, t.voluntarySwitches);
        assertEquals(2, t.involuntarySwitches);
    }

    @Test
    void costsAreDeltasPerMessageByGroupWithNewAndReusedThreadsCountedFromZero() {
        Map<Long, ThreadSnapshot.Task> a = new LinkedHashMap<>();
        a.put(1L, task("NettyServerNIOS", 100, 10, 1));
        a.put(2L, task("SendMessageThre", 50, 20, 2));
        a.put(3L, task("ReputMessageSer", 10, 100, 0));
        a.put(4L, task("C2 CompilerThre", 500, 1, 1));
        Map<Long, ThreadSnapshot.Task> b = new LinkedHashMap<>();
        b.put(1L, task("NettyServerNIOS", 300, 1010, 101));
        b.put(2L, task("SendMessageThre", 150, 520, 2));
        b.put(3L, task("ReputMessageSer", 20, 1100, 0));
        b.put(4L, task("WriteSocketServ", 7, 3, 0)); // thread id 4 reused by a new thread: counted from zero
        b.put(5L, task("java", 1, 1, 1)); // a new thread
        ThreadCosts c = ThreadCosts.between(new ThreadSnapshot(a, 0), new ThreadSnapshot(b, 1_000_000_000L), 100L);
        assertNotNull(c);
        double tickUs = ProcStat.ticksToNanos(1) / 1000.0;
        assertEquals(200 * tickUs / 100, c.groups.get("netty-io").cpuUsPerMsg, 1e-9);
        assertEquals(10.0, c.groups.get("netty-io").voluntarySwitchesPerMsg, 1e-9);
        assertEquals(1.0, c.groups.get("netty-io").involuntarySwitchesPerMsg, 1e-9);
        assertEquals(100 * tickUs / 100, c.groups.get("send").cpuUsPerMsg, 1e-9);
        assertEquals(7 * tickUs / 100, c.groups.get("replication").cpuUsPerMsg, 1e-9);
        assertEquals(1, c.groups.get("other").threads);
        assertFalse(c.groups.containsKey("jit"), "the compiler thread is gone at the end");
        long voluntary = 1000 + 500 + 1000 + 3 + 1;
        long involuntary = 100 + 0 + 0 + 0 + 1;
        assertEquals(voluntary / 100.0, c.voluntarySwitchesPerMsg, 1e-9);
        assertEquals(involuntary / 100.0, c.involuntarySwitchesPerMsg, 1e-9);
        assertEquals((voluntary + involuntary) / 100.0, c.contextSwitchesPerMsg, 1e-9);
        // The helper's threads made 2 reads and 3 writes per voluntary switch: the same ratios per message.
        assertEquals(2 * voluntary / 100.0, c.readCallsPerMsg, 1e-9);
        assertEquals(3 * voluntary / 100.0, c.writeCallsPerMsg, 1e-9);
        assertEquals(20.0, c.groups.get("netty-io").readCallsPerMsg, 1e-9);
        assertEquals(30.0, c.groups.get("netty-io").writeCallsPerMsg, 1e-9);
        assertEquals("NettyServerNIOS", c.busiestThread, "200 ticks over the second");
        assertEquals(ProcStat.ticksToNanos(200) / 1e9, c.busiestThreadCores, 1e-9);
    }

    @Test
    void systemCallsAreUnknownWhereAThreadHadNoIoFile() {
        Map<Long, ThreadSnapshot.Task> a = Map.of(1L, task("NettyServerNIOS", 1, 1, 1, 10, 10), 2L, task("SendMessageThre", 1, 1, 1, -1, -1));
        Map<Long, ThreadSnapshot.Task> b = Map.of(1L, task("NettyServerNIOS", 2, 2, 2, 60, 30), 2L, task("SendMessageThre", 2, 2, 2, -1, -1));
        ThreadCosts c = ThreadCosts.between(new ThreadSnapshot(a, 0), new ThreadSnapshot(b, 1), 100L);
        assertEquals(0.5, c.groups.get("netty-io").readCallsPerMsg, 1e-9);
        assertEquals(0.2, c.groups.get("netty-io").writeCallsPerMsg, 1e-9);
        assertNull(c.groups.get("send").readCallsPerMsg);
        assertNull(c.readCallsPerMsg, "the JVM's total is unknown when one thread's is");
        assertNull(c.writeCallsPerMsg);
    }

    @Test
    void noFiguresWithoutBothSnapshotsOrWithoutMessages() {
        ThreadSnapshot s = new ThreadSnapshot(Map.of(1L, task("x", 1, 1, 1)), 0);
        assertNull(ThreadCosts.between(null, s, 10L));
        assertNull(ThreadCosts.between(s, null, 10L));
        assertNull(ThreadCosts.between(s, s, 0L));
        assertNull(ThreadCosts.between(s, s, null));
    }

    @Test
    void brokerThreadNamesFallIntoTheirGroups() {
        assertEquals("netty-codec", ThreadCosts.groupOf("NettyServerCode"));
        assertEquals("netty-io", ThreadCosts.groupOf("NettyServerNIOS"));
        assertEquals("netty-io", ThreadCosts.groupOf("NettyEPOLLSelec"));
        assertEquals("send", ThreadCosts.groupOf("SendMessageThre"));
        assertEquals("pull", ThreadCosts.groupOf("PullMessageThre"));
        assertEquals("replication", ThreadCosts.groupOf("HAClient"));
        assertEquals("replication", ThreadCosts.groupOf("GroupTransferSe"));
        assertEquals("store", ThreadCosts.groupOf("FlushRealTimeSe"));
        assertEquals("gc", ThreadCosts.groupOf("G1 Conc#0"));
        assertEquals("gc", ThreadCosts.groupOf("GC Thread#1"));
        assertEquals("jit", ThreadCosts.groupOf("C1 CompilerThre"));
        assertEquals("other", ThreadCosts.groupOf("java"));
        for (String g : new String[] {"netty-io", "netty-codec", "send", "pull", "replication", "store", "gc", "jit", "other"}) {
            assertTrue(ThreadCosts.GROUPS.contains(g), g);
        }
    }

    @Test
    void clientThreadNamesFallIntoTheirGroups() {
        // The kernel's 15-character names of a 4.9.0 client's threads and of a load agent's senders.
        assertEquals("netty-io", ThreadCosts.groupOf("NettyClientSele"));
        assertEquals("netty-codec", ThreadCosts.groupOf("NettyClientWork"), "the client pipeline's executor");
        assertEquals("client-callback", ThreadCosts.groupOf("NettyClientPubl"));
        assertEquals("consume", ThreadCosts.groupOf("ConsumeMessageT"));
        assertEquals("pull", ThreadCosts.groupOf("PullMessageServ"));
        assertEquals("app-senders", ThreadCosts.groupOf("agent-1-sender-"));
        assertEquals("app-senders", ThreadCosts.groupOf("agent-12-sender"));
        assertEquals("app-senders", ThreadCosts.groupOf("agent-123-sende"));
        assertEquals("netty-io", ThreadCosts.groupOf("agent-1-wire-2-1"), "the wire client's event loop");
        assertEquals("netty-io", ThreadCosts.groupOf("agent-123-wire-"));
        assertEquals("other", ThreadCosts.groupOf("agent-1-http"));
        assertEquals("other", ThreadCosts.groupOf("RebalanceServic"));
        for (String g : new String[] {"app-senders", "client-callback", "consume"}) {
            assertTrue(ThreadCosts.GROUPS.contains(g), g);
        }
    }

    @Test
    void severalProcessesReadAsOneSnapshot() {
        long pid = ProcessHandle.current().pid();
        ThreadSnapshot one = ThreadSnapshot.of(pid);
        ThreadSnapshot both = ThreadSnapshot.of(java.util.List.of(pid, pid));
        if (one == null) {
            return; // not Linux: nothing to read
        }
        assertTrue(both != null && !both.tasks.isEmpty(), "this process's threads, read twice, as one snapshot");
        assertTrue(ThreadSnapshot.of(java.util.List.of(pid, -1L)) != null, "an unreadable process leaves the others");
        assertNull(ThreadSnapshot.of(java.util.List.of(-1L, -2L)), "nothing readable, no snapshot");
    }

    @Test
    void theOwnProcessThreadsAreReadableAndCountUp() throws Exception {
        long pid = ProcessHandle.current().pid();
        ThreadSnapshot before = ThreadSnapshot.of(pid);
        assertNotNull(before);
        // The thread is surely running (so named for the kernel) while the snapshot is taken, however loaded the
        // machine: it says so, then waits for the snapshot before it sleeps and wakes 20 times.
        java.util.concurrent.CountDownLatch running = new java.util.concurrent.CountDownLatch(1);
        java.util.concurrent.CountDownLatch snapped = new java.util.concurrent.CountDownLatch(1);
        Thread t = new Thread(() -> {
            try {
                running.countDown();
                snapped.await();
                for (int i = 0; i < 20; i++) {
                    Thread.sleep(1);
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }, "SendMessageThread_test");
        t.start();
        running.await();
        ThreadSnapshot during = ThreadSnapshot.of(pid);
        snapped.countDown();
        t.join();
        assertTrue(during.tasks.values().stream().anyMatch(x -> x.name.equals("SendMessageThre")), "JDK 17 names the thread");
        ThreadSnapshot after = ThreadSnapshot.of(pid);
        ThreadCosts c = ThreadCosts.between(before, after, 1L);
        assertTrue(c.voluntarySwitchesPerMsg > 0, "the JVM's threads slept and woke");
        assertNull(ThreadSnapshot.of(Long.MAX_VALUE));
    }
}
