package dev.rmqpatch.bench.protocol;

/**
 * {@code POST /target}: send to another of the prepared targets from now on, at this rate. The answer is the
 * {@link ProgressReport} of the load until the switch, so each window's agent-side figures end where it ends.
 */
public final class TargetRequest {
    /** Index into the prepare request's targets; -1 pauses (no sends until the next switch). */
    public int target;
    /** This agent's rate from now on, msg/s; 0 = unlimited. The schedule restarts at the switch. */
    public double ratePerSecond;

    public TargetRequest() {
    }

    public TargetRequest(int target, double ratePerSecond) {
        this.target = target;
        this.ratePerSecond = ratePerSecond;
    }
}
