package dev.rmqpatch.bench.failover;

import java.util.ArrayList;
import java.util.List;

/**
 * The runs in order: rounds one after another; within a round every latency-fault setting, and within a setting every
 * variant, in the given order in odd rounds and reversed in even ones (A B, B A, ...), so neither variant always runs
 * first on a machine that warms up or slows down.
 */
public final class FailoverSchedule {
    private FailoverSchedule() {
    }

    /** One run: a fresh two-master cluster of {@code variant}, its producers with latency fault {@code fault}. */
    public record Run(int round, String variant, LatencyFault fault) {
        /** Its folder under runs/: {@code 1-4.9.0-tuned@8-lf-on}. */
        public String folder() {
            return round + "-" + variant + "-lf-" + fault.label();
        }

        public String label() {
            return variant + " lf " + fault.label() + " r" + round;
        }
    }

    public static List<Run> of(List<String> variants, int rounds, List<LatencyFault> faults) {
        List<Run> runs = new ArrayList<>();
        for (int r = 1; r <= rounds; r++) {
            List<String> order = new ArrayList<>(variants);
            if (r % 2 == 0) {
                java.util.Collections.reverse(order);
            }
            for (LatencyFault f : faults) {
                for (String v : order) {
                    runs.add(new Run(r, v, f));
                }
            }
        }
        return runs;
    }
}
