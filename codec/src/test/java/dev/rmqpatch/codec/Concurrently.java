package dev.rmqpatch.codec;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CountDownLatch;

/** Runs one body on several threads released together, for the tests that compare stock and patched under contention. */
public final class Concurrently {

    /** One thread's work; its Random is seeded with the run's seed plus the thread's number. */
    public interface Body {
        void run(Random r) throws Exception;
    }

    private Concurrently() {
    }

    /** Runs {@code body} on {@code threads} threads at once and waits for them; what any thread threw fails the test. */
    public static void run(int threads, long seed, Body body) throws InterruptedException {
        CountDownLatch start = new CountDownLatch(1);
        List<Throwable> failures = Collections.synchronizedList(new ArrayList<Throwable>());
        List<Thread> started = new ArrayList<Thread>();
        for (int t = 0; t < threads; t++) {
            Random r = new Random(seed + t);
            Thread thread = new Thread(() -> {
                try {
                    start.await();
                    body.run(r);
                } catch (Throwable e) {
                    failures.add(e);
                }
            });
            thread.start();
            started.add(thread);
        }
        start.countDown();
        for (Thread thread : started) {
            thread.join();
        }
        if (!failures.isEmpty()) {
            AssertionError e = new AssertionError(failures.size() + " thread(s) failed, seed " + seed + ": " + failures);
            e.initCause(failures.get(0));
            throw e;
        }
    }
}
