package dev.rmqpatch.bench.coordinator;

/** A run ended early; carries what was measured until then (status "failed"). */
public final class RunFailedException extends Exception {
    private final RunResult partial;

    public RunFailedException(String message, RunResult partial, Throwable cause) {
        super(message, cause);
        this.partial = partial;
    }

    public RunResult partial() {
        return partial;
    }
}
