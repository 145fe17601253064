package dev.rmqpatch.bench.coordinator;

import dev.rmqpatch.bench.delivery.BodyStamp;
import java.io.PrintStream;
import java.util.List;

/**
 * Each agent's wall clock against this one's. An agent on this host reads the same clock: offset 0. For another
 * host, five {@code GET /status} calls; the one with the shortest round trip gives offset = agent time minus the
 * midpoint of the call, within half that round trip (the NTP idea, without its filtering). Stamps and consume times
 * are then written on the coordinator's clock; what the estimate cannot see (asymmetric paths, drift during the run)
 * stays in the end-to-end figures, which is why the offsets and their uncertainty go into the results.
 */
final class AgentClocks {
    static final String METHOD = "send and consume times on the coordinator's wall clock: agents on its host read the same clock "
        + "(offset 0); for others, offset = agent clock minus the midpoint of the fastest of 5 status calls (+/- half its round trip)";
    /** Status calls per agent on another host; the fastest one counts. */
    static final int PROBES = 5;
    /** Half a round trip beyond this (us) is warned about: end-to-end latencies carry that error. */
    static final long WARN_UNCERTAINTY_MICROS = 1000;

    private AgentClocks() {
    }

    /** Measures every agent's offset; warns on {@code out} about any known only to more than a millisecond. */
    static RunResult.ClockView measure(List<AgentClient> agents, PrintStream out) throws AgentFailure {
        RunResult.ClockView v = new RunResult.ClockView();
        v.method = METHOD;
        for (AgentClient a : agents) {
            long best = Long.MAX_VALUE;
            long offset = 0;
            if (!a.isLocal()) {
                for (int i = 0; i < PROBES; i++) {
                    long t0 = BodyStamp.wallMicros();
                    long agentNow = a.status().wallClockMicros;
                    long t1 = BodyStamp.wallMicros();
                    if (t1 - t0 < best) {
                        best = t1 - t0;
                        offset = agentNow - (t0 + t1) / 2;
                    }
                }
            } else {
                best = 0;
            }
            v.offsetMicros.put(a.name(), offset);
            v.uncertaintyMicros.put(a.name(), best / 2);
            if (best / 2 > WARN_UNCERTAINTY_MICROS) {
                out.printf("WARNING: %s's clock offset is known to +/- %.1f ms only: end-to-end latencies carry that error%n", a.name(),
                    best / 2000.0);
            }
        }
        return v;
    }

    /** The offset to give agent {@code name} in its prepare request: 0 when the clocks were not measured (no consumers). */
    static long offsetOf(RunResult.ClockView clock, String name) {
        return clock == null ? 0L : clock.offsetMicros.getOrDefault(name, 0L);
    }
}
