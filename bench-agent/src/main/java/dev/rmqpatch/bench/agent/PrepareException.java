package dev.rmqpatch.bench.agent;

/** Preparing a run failed (load loop, a driver's producers, consumers); the message says why in terms the operator can act on. */
final class PrepareException extends Exception {
    PrepareException(String message, Throwable cause) {
        super(message, cause);
    }
}
