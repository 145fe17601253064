package dev.rmqpatch.bench.failover;

import java.util.Locale;
import org.apache.rocketmq.client.exception.MQBrokerException;

/** How a sync send ended, as a producer's caller sees it. */
public enum SendOutcome {
    /** SendResult SEND_OK: acknowledged, so it must be read back. */
    SEND_OK,
    /** Another SendStatus (FLUSH_DISK_TIMEOUT, FLUSH_SLAVE_TIMEOUT, SLAVE_NOT_AVAILABLE): stored, not confirmed as asked. */
    OTHER_STATUS,
    /** The broker answered SYSTEM_BUSY (stock's fast failure of sends queued too long, TIMEOUT_CLEAN_QUEUE and the like). */
    SYSTEM_BUSY,
    /** The broker answered with another error code. */
    BROKER_ERROR,
    /** No answer within the send timeout (the client's timeouts come as several exception types, each saying "timeout"). */
    TIMEOUT,
    /** Anything else the client threw (no route, a closed connection ...). */
    CLIENT_ERROR;

    /** RocketMQ's ResponseCode.SYSTEM_BUSY. */
    static final int SYSTEM_BUSY_CODE = 2;

    /** The outcome of a send that threw {@code e}: a broker's answer anywhere in the cause chain first, then a timeout. */
    public static SendOutcome of(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof MQBrokerException b) {
                return b.getResponseCode() == SYSTEM_BUSY_CODE ? SYSTEM_BUSY : BROKER_ERROR;
            }
        }
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t.getClass().getSimpleName().contains("RemotingTooMuchRequest")
                || String.valueOf(t).toLowerCase(Locale.ROOT).contains("timeout")) {
                return TIMEOUT;
            }
        }
        return CLIENT_ERROR;
    }

    /** What a failure was, for the counts by kind: the broker's response code, else the innermost exception's type. */
    public static String detail(Throwable e) {
        Throwable last = e;
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof MQBrokerException b) {
                return "MQBrokerException(" + b.getResponseCode() + ")";
            }
            last = t;
        }
        return e == last ? e.getClass().getSimpleName() : e.getClass().getSimpleName() + "<" + last.getClass().getSimpleName() + ">";
    }
}
