package dev.rmqpatch.jmh.report;

/** Bad command-line arguments; the message names the offending argument. */
public final class UsageException extends Exception {
    public UsageException(String message) {
        super(message);
    }
}
