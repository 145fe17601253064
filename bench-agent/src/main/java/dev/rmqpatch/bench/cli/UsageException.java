package dev.rmqpatch.bench.cli;

/** A command line the tool cannot act on; the message is shown to the user as is, followed by a hint to --help. */
public final class UsageException extends Exception {
    public UsageException(String message) {
        super(message);
    }
}
