package dev.rmqpatch.bench.engine;

/** A plan could not be completed; what was measured was written (status "failed"). */
public final class PlanFailedException extends Exception {
    public PlanFailedException(String message, Throwable cause) {
        super(message, cause);
    }
}
