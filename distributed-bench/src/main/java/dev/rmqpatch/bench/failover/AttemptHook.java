package dev.rmqpatch.bench.failover;

import java.util.ArrayList;
import java.util.List;
import org.apache.rocketmq.client.hook.SendMessageContext;
import org.apache.rocketmq.client.hook.SendMessageHook;

/**
 * Which broker each attempt of a sync send went to: the stock client calls a send hook before every attempt, retries
 * included, on the sending thread, so a thread-local list holds the current send's brokers. Nothing else is changed.
 */
final class AttemptHook implements SendMessageHook {
    private final ThreadLocal<List<String>> attempts = ThreadLocal.withInitial(ArrayList::new);

    @Override
    public String hookName() {
        return "rmqpatch-failover-attempts";
    }

    @Override
    public void sendMessageBefore(SendMessageContext context) {
        attempts.get().add(context.getMq() == null ? null : context.getMq().getBrokerName());
    }

    @Override
    public void sendMessageAfter(SendMessageContext context) {
    }

    /** Begins a send on this thread: forgets the previous one's attempts. */
    void begin() {
        attempts.get().clear();
    }

    /** The brokers the current send's attempts went to, in order (empty when none was made: no route). */
    List<String> attempts() {
        return attempts.get();
    }
}
