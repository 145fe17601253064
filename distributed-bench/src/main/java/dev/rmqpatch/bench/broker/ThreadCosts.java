package dev.rmqpatch.bench.broker;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What a broker (or client) JVM's threads cost per stored message between two {@link ThreadSnapshot}s, by thread group (which
 * part of the broker a thread belongs to, from its name), plus the whole JVM's context switches per message: how many
 * times per message a thread went to sleep (voluntary: a hand-off or a wait) or was preempted (involuntary), and its read
 * and write system calls per message (a netty IO thread's reads per message say how many requests one socket read
 * brought in: 0.5 is two at a time).
 */
public final class ThreadCosts {
    /** The groups, in table order; a thread whose name matches none is "other" (older JDK 8 builds name almost every thread "java"). */
    public static final List<String> GROUPS = List.of("netty-io", "netty-codec", "send", "pull", "replication", "store", "app-senders",
        "client-callback", "consume", "gc", "jit", "other");

    /** One group's figures per message. */
    public static final class Group {
        public double cpuUsPerMsg;
        public double voluntarySwitchesPerMsg;
        public double involuntarySwitchesPerMsg;
        /** Read and write system calls per message; null where a thread of the group had no io file. */
        public Double readCallsPerMsg;
        public Double writeCallsPerMsg;
        /** Threads of the group seen at the window's end. */
        public int threads;
    }

    /** All threads: voluntary + involuntary context switches per message. */
    public Double contextSwitchesPerMsg;
    public Double voluntarySwitchesPerMsg;
    public Double involuntarySwitchesPerMsg;
    /** All threads: read and write system calls per message; null where a thread had no io file. */
    public Double readCallsPerMsg;
    public Double writeCallsPerMsg;
    /**
     * The thread that used the most CPU over the interval, and how much (cores: 1.0 is one CPU all the time): a single
     * selector or executor thread near 1.0 is the broker's bottleneck on any number of cores.
     */
    public String busiestThread;
    public Double busiestThreadCores;
    /** By group name (see {@link #GROUPS}); groups without threads are left out. */
    public Map<String, Group> groups = new LinkedHashMap<>();

    /** Null when a snapshot is missing or no message was stored. */
    public static ThreadCosts between(ThreadSnapshot start, ThreadSnapshot end, Long messages) {
        if (start == null || end == null || messages == null || messages <= 0) {
            return null;
        }
        Map<String, long[]> sums = new LinkedHashMap<>();
        for (String g : GROUPS) {
            sums.put(g, new long[6]);
        }
        long busiest = -1;
        String busiestName = null;
        for (Map.Entry<Long, ThreadSnapshot.Task> e : end.tasks.entrySet()) {
            ThreadSnapshot.Task now = e.getValue();
            ThreadSnapshot.Task before = start.tasks.get(e.getKey());
            if (before != null && !before.name.equals(now.name)) {
                before = null; // a thread id reused by a new thread
            }
            long[] s = sums.get(groupOf(now.name));
            long cpu = now.cpuNanos - (before == null ? 0 : before.cpuNanos);
            if (cpu > busiest) {
                busiest = cpu;
                busiestName = now.name;
            }
            s[0] += cpu;
            s[1] += now.voluntarySwitches - (before == null ? 0 : before.voluntarySwitches);
            s[2] += now.involuntarySwitches - (before == null ? 0 : before.involuntarySwitches);
            s[3]++;
            s[4] = add(s[4], now.readCalls, before == null ? 0 : before.readCalls);
            s[5] = add(s[5], now.writeCalls, before == null ? 0 : before.writeCalls);
        }
        ThreadCosts c = new ThreadCosts();
        long wall = end.nanos - start.nanos;
        if (busiestName != null && wall > 0) {
            c.busiestThread = busiestName;
            c.busiestThreadCores = (double) busiest / wall;
        }
        long voluntary = 0;
        long involuntary = 0;
        long reads = 0;
        long writes = 0;
        for (Map.Entry<String, long[]> e : sums.entrySet()) {
            long[] s = e.getValue();
            voluntary += s[1];
            involuntary += s[2];
            reads = s[3] == 0 ? reads : add(reads, s[4], 0);
            writes = s[3] == 0 ? writes : add(writes, s[5], 0);
            if (s[3] == 0) {
                continue;
            }
            Group g = new Group();
            g.cpuUsPerMsg = s[0] / 1000.0 / messages;
            g.voluntarySwitchesPerMsg = (double) s[1] / messages;
            g.involuntarySwitchesPerMsg = (double) s[2] / messages;
            g.readCallsPerMsg = perMessage(s[4], messages);
            g.writeCallsPerMsg = perMessage(s[5], messages);
            g.threads = (int) s[3];
            c.groups.put(e.getKey(), g);
        }
        c.voluntarySwitchesPerMsg = (double) voluntary / messages;
        c.involuntarySwitchesPerMsg = (double) involuntary / messages;
        c.contextSwitchesPerMsg = (double) (voluntary + involuntary) / messages;
        c.readCallsPerMsg = perMessage(reads, messages);
        c.writeCallsPerMsg = perMessage(writes, messages);
        return c;
    }

    /** A running sum of counter differences that stays -1 (unknown) once any counter is unknown. */
    private static long add(long sum, long now, long before) {
        return sum < 0 || now < 0 || before < 0 ? -1 : sum + now - before;
    }

    private static Double perMessage(long count, long messages) {
        return count < 0 ? null : (double) count / messages;
    }

    /**
     * The group of a thread, from the kernel's copy of its name (the first 15 characters of the Java name). A RocketMQ
     * client's threads (a load agent's, or a broker's own client to its name server) have groups of their own: its netty
     * selector is netty-io, its pipeline executor (NettyClientWorkerThread) netty-codec, its callback executor
     * (NettyClientPublicExecutor) client-callback, its pull service pull, its consume executor (ConsumeMessageThread)
     * consume; a load agent's sender threads (agent-N-sender-M, where a sync send runs the client's send path) are
     * app-senders; the wire client's event loops (agent-N-wire-M, where its sends are written and answered) netty-io.
     */
    public static String groupOf(String name) {
        if (name.startsWith("NettyServerCode") || name.startsWith("NettyClientWork")) {
            return "netty-codec";
        }
        if (name.startsWith("NettyClientPubl")) {
            return "client-callback";
        }
        if (name.startsWith("ConsumeMessageT")) {
            return "consume";
        }
        if (name.startsWith("PullMessageServ")) {
            return "pull";
        }
        if (name.matches("agent-[0-9]+-sen.*")) {
            return "app-senders";
        }
        if (name.startsWith("Netty") || name.matches("agent-[0-9]+-wir.*")) {
            return "netty-io";
        }
        if (name.startsWith("SendMessageThre")) {
            return "send";
        }
        if (name.startsWith("PullMessageThre")) {
            return "pull";
        }
        if (name.startsWith("ReadSocketServi") || name.startsWith("WriteSocketServ") || name.startsWith("HAClient")
            || name.startsWith("GroupTransferSe") || name.startsWith("AcceptSocketSer")) {
            return "replication";
        }
        if (name.startsWith("ReputMessageSer") || name.startsWith("FlushRealTimeSe") || name.startsWith("CommitRealTimeS")
            || name.startsWith("FlushConsumeQue") || name.startsWith("GroupCommitServ") || name.startsWith("AllocateMapped")) {
            return "store";
        }
        if (name.startsWith("GC Thread") || name.startsWith("G1 ") || name.startsWith("VM Thread")) {
            return "gc";
        }
        if (name.contains("CompilerThre")) {
            return "jit";
        }
        return "other";
    }
}
