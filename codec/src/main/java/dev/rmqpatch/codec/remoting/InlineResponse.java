package dev.rmqpatch.codec.remoting;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.function.Consumer;

/**
 * P9. {@code SendMessageProcessor.asyncProcessRequest} hands the response to {@code thenAcceptAsync(callback,
 * sendMessageExecutor)}: even when the store has already answered (asynchronous flush and replication, the common
 * case), writing the response becomes a second task on the send executor, a queue operation and usually a
 * wake-up of another worker. The caller already runs on that executor, so when the future is complete the
 * callback runs right here; a future still waiting (synchronous flush or replication) keeps stock's hand-off.
 */
public final class InlineResponse {

    private InlineResponse() {
    }

    /** Instead of {@code future.thenAcceptAsync(callback, executor)}. */
    public static <T> CompletableFuture<Void> thenAcceptAsync(CompletableFuture<T> future, Consumer<? super T> callback,
                                                              Executor executor) {
        return future.isDone() ? future.thenAccept(callback) : future.thenAcceptAsync(callback, executor);
    }
}
