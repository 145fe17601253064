package dev.rmqpatch.bench.coordinator;

import dev.rmqpatch.bench.protocol.ProgressReport;
import java.io.PrintStream;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;

/**
 * After the producers stopped: polls the consumers every second until every subscription has received as many
 * distinct messages as were acknowledged to its topic and the counts held still for a second, or nothing moved for
 * 15 s, or the drain timeout passed. Says whether they caught up and how long it took.
 */
final class ConsumerDrain {
    /** Seconds without a new delivery after which the drain gives up. */
    static final int QUIET_SECONDS = 15;

    private final RunSpec spec;
    private final AgentGroup group;
    private final RunWatch watch;
    private final PrintStream out;
    private double seconds;

    ConsumerDrain(RunSpec spec, AgentGroup group, RunWatch watch, PrintStream out) {
        this.spec = spec;
        this.group = group;
        this.watch = watch;
        this.out = out;
    }

    /** Seconds from the start of {@link #run} to its last poll. */
    double seconds() {
        return seconds;
    }

    /**
     * @param acked acknowledged sends of the run, what each subscription must receive when {@code ackedByTopic} is null
     * @return whether every subscription caught up
     */
    boolean run(SubscriptionPlan plan, long acked, Map<String, Long> ackedByTopic) throws AgentFailure, Coordinator.Abort {
        Map<String, Long> expected = plan.expectedByGroup(acked, ackedByTopic);
        List<AgentClient> agents = group.agents();
        long begin = System.nanoTime();
        long lastChange = begin;
        Map<String, Long> last = null;
        for (int s = 1; ; s++) {
            Pacing.awaitSecond(begin, s);
            watch.check();
            List<ProgressReport> reports = group.forAll(AgentClient::progress);
            Map<String, Long> received = new TreeMap<>();
            expected.keySet().forEach(g -> received.put(g, 0L));
            for (int i = 0; i < reports.size(); i++) {
                ProgressReport r = reports.get(i);
                if ("FAILED".equals(r.state)) {
                    throw new AgentFailure(agents.get(i).name(), agents.get(i).name() + " failed while its consumers drained: " + r.error, null);
                }
                if (r.receivedByGroup != null) {
                    r.receivedByGroup.forEach((g, n) -> received.merge(g, n, Long::sum));
                }
            }
            long now = System.nanoTime();
            seconds = (now - begin) / 1e9;
            boolean all = received.entrySet().stream().allMatch(e -> e.getValue() >= expected.getOrDefault(e.getKey(), acked));
            if (all && received.equals(last)) {
                out.printf("[%s] drain   every subscription received all %,d acknowledged messages (%.0f s)%n", spec.label, acked, seconds);
                return true;
            }
            if (!received.equals(last)) {
                lastChange = now;
            }
            String slowest = slowestGroup(received, expected, acked);
            out.printf("[%s] drain   %3d s  slowest subscription %,d of %,d acknowledged%n", spec.label, s,
                slowest == null ? acked : received.get(slowest), slowest == null ? acked : expected.getOrDefault(slowest, acked));
            if (s >= spec.drainTimeoutSeconds() || now - lastChange > TimeUnit.SECONDS.toNanos(QUIET_SECONDS)) {
                out.printf("[%s] drain   gave up after %d s (%s)%n", spec.label, s,
                    s >= spec.drainTimeoutSeconds() ? "drain timeout" : "nothing received for 15 s");
                return false;
            }
            last = received;
        }
    }

    /**
     * The group furthest behind what it must receive (the first of equals, in the map's order); null when there are no
     * groups. A group missing from {@code expected} must receive {@code acked}.
     */
    static String slowestGroup(Map<String, Long> received, Map<String, Long> expected, long acked) {
        String slowest = null;
        for (Map.Entry<String, Long> e : received.entrySet()) {
            long behind = expected.getOrDefault(e.getKey(), acked) - e.getValue();
            if (slowest == null || behind > expected.getOrDefault(slowest, acked) - received.get(slowest)) {
                slowest = e.getKey();
            }
        }
        return slowest;
    }
}
