package dev.rmqpatch.bench.agent;

/**
 * The bookkeeping of one send from its start to its outcome: the phase it is charged to, when it was meant to start and
 * did, and its stamp. A {@link Sender} is its own record while it has one send in flight; a driver with several in
 * flight per sender (the stock client's async mode) copies it into a record per send.
 */
class Send {
    /** The phase the send is charged to ({@link LoadLoop#sent}). */
    PhaseStats stats;
    /** When the rate schedule meant the send to start; -1 when unlimited. */
    long intendedNanos = -1;
    /** When the send started, the driver's clock for its latency. */
    long sentNanos;
    /** Stamped runs: the stamp's stream id and sequence ({@link LoadLoop#stamp}); -1 otherwise. */
    int stream = -1;
    long sequence = -1;

    Send() {
    }

    /** A record of {@code from}'s send as it is now. */
    Send(Send from) {
        this.stats = from.stats;
        this.intendedNanos = from.intendedNanos;
        this.sentNanos = from.sentNanos;
        this.stream = from.stream;
        this.sequence = from.sequence;
    }
}
