package dev.rmqpatch.codec.remoting;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

import org.junit.jupiter.api.Test;

class InlineResponseTest {

    private final AtomicInteger queued = new AtomicInteger();
    private final Executor counting = r -> {
        queued.incrementAndGet();
        new Thread(r, "executor").start();
    };

    @Test
    void completedFutureRunsTheCallbackOnTheCallingThread() throws Exception {
        AtomicReference<Thread> ranOn = new AtomicReference<>();
        AtomicReference<String> got = new AtomicReference<>();
        CompletableFuture<Void> done = InlineResponse.thenAcceptAsync(CompletableFuture.completedFuture("response"),
            r -> {
                ranOn.set(Thread.currentThread());
                got.set(r);
            }, counting);
        assertTrue(done.isDone(), "already ran");
        assertSame(Thread.currentThread(), ranOn.get());
        assertEquals("response", got.get());
        assertEquals(0, queued.get(), "no second task");
    }

    @Test
    void pendingFutureKeepsStocksHandOff() throws Exception {
        CompletableFuture<String> pending = new CompletableFuture<>();
        AtomicReference<String> ranOn = new AtomicReference<>();
        CompletableFuture<Void> done = InlineResponse.thenAcceptAsync(pending, r -> ranOn.set(Thread.currentThread().getName()),
            counting);
        pending.complete("late");
        done.get();
        assertEquals(1, queued.get());
        assertEquals("executor", ranOn.get());
    }

    @Test
    void aFailingCallbackFailsTheReturnedFutureAsStocksWould() {
        CompletableFuture<Void> done = InlineResponse.thenAcceptAsync(CompletableFuture.completedFuture("x"), r -> {
            throw new IllegalStateException("callback");
        }, counting);
        assertTrue(done.isCompletedExceptionally(), "not thrown at the caller");
    }
}
