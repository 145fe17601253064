package dev.rmqpatch.codec.remoting;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/** P15 as asyncProcessRequest uses it: thenAcceptAsync(callback, DirectResponse's executor). */
class DirectResponseTest {

    private final ExecutorService direct = DirectResponse.sendMessageExecutor(null);

    @Test
    void aLaterCompletionRunsTheCallbackOnTheCompletingThread() throws Exception {
        CompletableFuture<String> store = new CompletableFuture<>();
        AtomicReference<Thread> ranOn = new AtomicReference<>();
        AtomicReference<String> got = new AtomicReference<>();
        CompletableFuture<Void> done = store.thenAcceptAsync(r -> {
            ranOn.set(Thread.currentThread());
            got.set(r);
        }, direct);
        assertFalse(done.isDone());
        Thread acker = new Thread(() -> store.complete("SEND_OK"), "ha-ack");
        acker.start();
        acker.join();
        assertTrue(done.isDone());
        assertSame(acker, ranOn.get(), "no other thread woken");
        assertEquals("SEND_OK", got.get());
    }

    @Test
    void analreadyCompleteFutureRunsOnTheCaller() {
        AtomicReference<Thread> ranOn = new AtomicReference<>();
        CompletableFuture.completedFuture("x").thenAcceptAsync(r -> ranOn.set(Thread.currentThread()), direct);
        assertSame(Thread.currentThread(), ranOn.get());
    }

    @Test
    void aFailingCallbackFailsItsOwnStageNotTheCompletingThread() {
        CompletableFuture<String> store = new CompletableFuture<>();
        CompletableFuture<Void> done = store.thenAcceptAsync(r -> {
            throw new IllegalStateException("write failed");
        }, direct);
        assertTrue(store.complete("SEND_OK"), "the completer is not disturbed");
        assertTrue(done.isCompletedExceptionally());
        assertFalse(direct.isShutdown());
    }

    /** 4.9.3+'s variant hands the same direct executor for getPutMessageFutureExecutor(): same behaviour. */
    @Test
    void theVariantsExecutorIsTheSameDirectOne() throws Exception {
        ExecutorService variant = DirectResponse.putMessageFutureExecutor(null);
        assertSame(direct, variant);
        CompletableFuture<String> store = new CompletableFuture<>();
        AtomicReference<Thread> ranOn = new AtomicReference<>();
        CompletableFuture<Void> done = store.thenAcceptAsync(r -> ranOn.set(Thread.currentThread()), variant);
        Thread acker = new Thread(() -> store.complete("SEND_OK"), "ha-ack");
        acker.start();
        acker.join();
        assertTrue(done.isDone());
        assertSame(acker, ranOn.get());
    }
}
