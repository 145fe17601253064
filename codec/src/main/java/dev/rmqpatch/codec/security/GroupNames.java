package dev.rmqpatch.codec.security;

import java.util.concurrent.atomic.AtomicLong;

import dev.rmqpatch.codec.names.ValidNames;

import org.apache.rocketmq.common.constant.LoggerName;
import org.apache.rocketmq.logging.InternalLogger;
import org.apache.rocketmq.logging.InternalLoggerFactory;

/**
 * S9: a consumer group's name must be what every RocketMQ client allows ({@code [%|a-zA-Z0-9_-]}, 1 to 255
 * characters), because the broker turns it into topic names ({@code %RETRY%group}, {@code %DLQ%group}) and topic names
 * into folders of the store: stock 4.9.0 takes any name in CONSUMER_SEND_MSG_BACK, heartbeats and pulls, so
 * {@code x/../../elsewhere} makes it create and write consume-queue files outside its store, before any ACL check when
 * the ACL is off (upstream validates the name in {@code findSubscriptionGroupConfig} since 5.1.1, #6142).
 */
public final class GroupNames {

    static final int MAX_LENGTH = 255;

    private static final InternalLogger LOG = InternalLoggerFactory.getLogger(LoggerName.BROKER_LOGGER_NAME);
    private static final AtomicLong REFUSED = new AtomicLong();

    private GroupNames() {
    }

    /**
     * Entry of {@code SubscriptionGroupManager.findSubscriptionGroupConfig(String)}: true (the method returns null, "no
     * such group", before looking up or creating anything) for a name no client may use; false runs stock.
     */
    public static boolean refuseIllegalGroup(Object manager, String group) {
        if (legal(group)) {
            return false;
        }
        long n = REFUSED.incrementAndGet();
        if (n == 1 || n % 1000 == 0) {
            LOG.warn("rmqpatch S9: refused consumer group name [{}] ({} so far): only [%|a-zA-Z0-9_-], 1 to {} characters",
                group, n, MAX_LENGTH);
        }
        return true;
    }

    static boolean legal(String group) {
        return group != null && group.length() <= MAX_LENGTH && ValidNames.validChars(group);
    }
}
