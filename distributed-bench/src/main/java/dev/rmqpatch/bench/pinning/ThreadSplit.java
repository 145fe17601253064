package dev.rmqpatch.bench.pinning;

import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;

/**
 * Puts one broker JVM's threads where a {@link SplitPlan} wants them, one thread at a time, and reads back what the
 * kernel then reports. Threads start lazily (netty's on the first connection, the send executor grows under load) and
 * inherit the affinity of the thread that started them, so this runs again at every window start; it reads
 * /proc/PID/task/* and calls taskset only for threads that are not where they belong, which after the first time are
 * the threads started since.
 */
public final class ThreadSplit {
    /** What one application found: per role the threads read back on the role's CPUs, and the calls it made. */
    public static final class Report {
        /** Threads read back on their role's CPUs, by role. */
        public final Map<SplitPlan.Role, Integer> placed = new EnumMap<>(SplitPlan.Role.class);
        /** Threads not on their role's CPUs at the read-back (started between the two reads): placed the next time. */
        public int notPlaced;
        /** Single-thread taskset calls this application made. */
        public int calls;

        public int placed(SplitPlan.Role role) {
            return placed.getOrDefault(role, 0);
        }
    }

    private ThreadSplit() {
    }

    /** Places every thread of {@code pid} that is not on its role's CPUs, then reads them all back. */
    public static Report apply(Affinity affinity, SplitPlan plan, long pid) throws Affinity.AffinityException {
        Report r = new Report();
        List<Affinity.ThreadAffinity> threads = affinity.threads(pid);
        for (Affinity.ThreadAffinity t : threads) {
            List<Integer> wanted = plan.cpus(SplitPlan.roleOf(t.name()));
            if (!sameCpus(t.cpus(), wanted)) {
                affinity.pinThread(t.tid(), wanted);
                r.calls++;
            }
        }
        for (SplitPlan.Role role : SplitPlan.Role.values()) {
            r.placed.put(role, 0);
        }
        for (Affinity.ThreadAffinity t : r.calls == 0 ? threads : affinity.threads(pid)) {
            SplitPlan.Role role = SplitPlan.roleOf(t.name());
            if (sameCpus(t.cpus(), plan.cpus(role))) {
                r.placed.merge(role, 1, Integer::sum);
            } else {
                r.notPlaced++;
            }
        }
        return r;
    }

    static boolean sameCpus(List<Integer> a, List<Integer> b) {
        return new TreeSet<>(a).equals(new TreeSet<>(b));
    }
}
