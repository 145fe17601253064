package dev.rmqpatch.bench.agent;

import java.lang.reflect.Method;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.Set;
import org.apache.rocketmq.client.consumer.DefaultMQPushConsumer;

/**
 * Sends the heartbeat of every client instance behind some push consumers now, as the client's own 30-second timer
 * would.
 *
 * <p>Why the harness needs it: when a rebalance changes a consumer's queues, the stock client (4.9.x) raises the
 * subscription's version and sends a heartbeat under a tryLock; if another heartbeat of the instance is under way, it
 * sends nothing ("lock heartBeat, but failed"). Should that other heartbeat have read the subscription before the
 * raise, the broker keeps the older version and answers every pull of that consumer SUBSCRIPTION_NOT_LATEST (code 25;
 * the client retries every 3 s) until the next timed heartbeat: up to 30 s without a message, longer than a short run's
 * window and drain (a CI run's count check once gave up with half a group's queues unread). The agent sends one when
 * the window opens and when the drain begins, so a consumer stalled this way resumes within the client's retry delay.
 */
public final class SubscriptionHeartbeats {
    private SubscriptionHeartbeats() {
    }

    /**
     * One heartbeat per distinct client instance of {@code consumers} (instances are shared above
     * {@link Consumers#MAX_CLIENT_INSTANCES} consumers); returns how many instances it reached. Called by name: it
     * returns void in 4.9.x and boolean in 5.x, and a release client runs the agent against its own jars.
     */
    public static int send(Iterable<DefaultMQPushConsumer> consumers) {
        Set<Object> instances = Collections.newSetFromMap(new IdentityHashMap<>());
        for (DefaultMQPushConsumer c : consumers) {
            Object instance = c.getDefaultMQPushConsumerImpl().getmQClientFactory();
            if (instance == null || !instances.add(instance)) {
                continue;
            }
            try {
                Method heartbeat = instance.getClass().getMethod("sendHeartbeatToAllBrokerWithLock");
                heartbeat.invoke(instance);
            } catch (ReflectiveOperationException e) {
                throw new IllegalStateException("cannot send the heartbeat of " + c.getConsumerGroup() + "'s client: " + e, e);
            }
        }
        return instances.size();
    }
}
