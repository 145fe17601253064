package dev.rmqpatch.bench.agent;

/**
 * One closed-loop sender of the {@link LoadLoop}: a thread of its own, or a slot resumed on an event loop. The loop
 * sets where its next message goes ({@link #target}, {@link #pair}, {@link #streamSlot}) and when it was meant to
 * start, then hands it to the driver; as a {@link Send} it also records that message until its outcome.
 */
final class Sender extends Send {
    final int index;
    /** This sender's key distributor (OMB: one per producer); null without one. */
    final MessageKeys keys;
    /** Messages this sender picked a pair for so far: its turn in {@link Pairs#pairOf}. */
    long turn;
    /** The next message's target and pair (index into the target's pairs), and its stamp stream slot. */
    int target;
    int pair;
    int streamSlot;
    /** Parked while the load is paused (event-loop senders); resumed by the next switch. Guarded by this. */
    boolean parked;

    Sender(int index, MessageKeys keys) {
        this.index = index;
        this.keys = keys;
    }
}
