package dev.rmqpatch.bench.agent;

import dev.rmqpatch.bench.protocol.AgentResult;
import java.util.concurrent.ScheduledExecutorService;

/**
 * One client kind's way to send a message, as OpenMessaging Benchmark's drivers are to its worker:
 * {@link RocketMqDriver} (stock {@code DefaultMQProducer}s, {@code --client rocketmq}) or {@link WireDriver} (pre-encoded
 * frames over netty, {@code --client wire}). The {@link LoadLoop} decides which sender sends when, to which target and
 * pair, and keeps the phases and their counts; a driver owns its producers and connections, sends the message it is
 * given, and reports that message's one outcome to the loop ({@link LoadLoop#acked}, {@link LoadLoop#failed},
 * {@link LoadLoop#unconfirmed}).
 */
interface LoadDriver {
    /** How many closed-loop senders the run has (threads, or the wire client's slots). */
    int senders();

    /**
     * Null: each sender is a thread of its own and {@link #send} may block until the outcome is known. Otherwise the
     * event loops the senders run on: {@link #send} must not block, and the driver resumes the sender
     * ({@link LoadLoop#next}) once the outcome is reported.
     */
    ScheduledExecutorService eventLoops();

    /** The load begins at {@code beginNanos}; {@code senders} are the loop's, index-aligned with {@link #senders()}. */
    void start(LoadLoop loop, Sender[] senders, long beginNanos);

    /**
     * Sends sender {@code s}'s next message to its {@link Sender#target} and {@link Sender#pair}: charges it
     * ({@link LoadLoop#sent}) and reports exactly one outcome for it, or, when the run is stopping before it went out,
     * neither. Returns true when the sender may send again at once, false when the driver resumes it.
     */
    boolean send(Sender s) throws InterruptedException;

    /** The loop moved the load to another target or paused it. */
    void switched();

    /** Called once the senders have stopped: waits up to {@code deadlineMs} for the answers in flight; returns how many are missing. */
    long drain(long deadlineMs);

    /** Adds what only this client knows to a stopped run's result: its name, its own counters. */
    void describe(AgentResult result);

    /** Why the run cannot go on (brokers gone), or null. */
    String failure();

    /** Closes producers and connections; idempotent. */
    void close();
}
