package dev.rmqpatch.bench.protocol;

/**
 * Send outcomes. Every send that was issued ends in exactly one bucket, so {@code sent = acked + failed + unconfirmed
 * + inFlight}; a difference means a lost callback or a counting bug.
 */
public final class Counts {
    public long sent;
    /** The broker answered with a send status (SEND_OK or a flush/slave status: the master stored the message). */
    public long acked;
    /** The producer threw or the callback reported an exception. */
    public long failed;
    /** Oneway sends that returned without an error; the broker never confirms them. */
    public long unconfirmed;
    /** Async sends still without an answer when the agent gave up waiting at stop. */
    public long inFlight;

    public void add(Counts other) {
        sent += other.sent;
        acked += other.acked;
        failed += other.failed;
        unconfirmed += other.unconfirmed;
        inFlight += other.inFlight;
    }

    public boolean balanced() {
        return sent == acked + failed + unconfirmed + inFlight;
    }
}
