package dev.rmqpatch.codec.ha;

import java.lang.ref.WeakReference;
import java.util.Map;
import java.util.WeakHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;

import org.apache.rocketmq.common.constant.LoggerName;
import org.apache.rocketmq.logging.InternalLogger;
import org.apache.rocketmq.logging.InternalLoggerFactory;
import org.apache.rocketmq.store.ha.WaitNotifyObject;

/**
 * P16. The wake-up of a master's HA write threads by every synchronous put, without a lock when no write thread waits.
 *
 * <p>Stock 4.9.0: on a SYNC_MASTER every put the slave must hold ({@code CommitLog.submitReplicaRequest} and
 * {@code handleHA}) calls {@code haService.getWaitNotifyObject().wakeupAll()}, which enters the object's monitor,
 * walks a {@code HashMap} of thread id to "notified" flag, sets every flag and calls {@code notifyAll} when one was
 * clear. Each HA connection's {@code WriteSocketService}, finding nothing new to send, calls
 * {@code allWaitForRunning(100)}: under the same monitor it returns at once when its flag is set (clearing it), else
 * {@code wait}s up to 100 ms and clears its flag. So every message enters the monitor, also while the write thread is
 * busy sending, and contends with the other send threads and with the write thread coming back from its wait.
 *
 * <p>Here each waiting thread has one atomic state, RUNNING, NOTIFIED or PARKED; {@code wakeupAll} reads it and, only
 * when it is not NOTIFIED already, sets it with a compare-and-set, unparking the thread only when it was PARKED. A
 * wait takes NOTIFIED at once (stock's set flag), else goes from RUNNING to PARKED and parks until a waker makes it
 * NOTIFIED, the interval passes or the thread is interrupted, then takes the state back to RUNNING (stock's
 * {@code finally}). The state is one word, so a put either finds the thread PARKED and wakes it, or finds it RUNNING
 * and makes its next wait return at once: no wake-up is lost. A put while the write thread is busy costs one volatile
 * read; no put takes a lock.
 *
 * <p>Same behaviour as stock, with two differences, both towards waking earlier: a thread's first wait (and its first
 * after {@code removeFromWaitingThreadTable}) returns at once, because a thread enters the table already notified;
 * stock enters a thread only when its first wait ends, so a put during that wait is not seen until the 100 ms have
 * passed (4.9.1's #2885 closes the same gap by entering the thread first). And {@code wakeupAll} unparks only the
 * threads that wait through this class, where stock's {@code notifyAll} also wakes threads in {@code waitForRunning}
 * on the same object (no 4.9.0 object is used both ways). Objects of a subclass of {@code WaitNotifyObject}, whose
 * {@code onWaitEnd} may do something, are left to stock (every hook returns false).
 */
public final class HaWakeups {

    private static final InternalLogger LOG = InternalLoggerFactory.getLogger(LoggerName.STORE_LOGGER_NAME);

    /** Waiters per object; one object per broker (HAService's), so the cache below always hits outside tests. */
    private static final Map<WaitNotifyObject, Waiters> ALL = new WeakHashMap<WaitNotifyObject, Waiters>();
    private static volatile Waiters last;

    private HaWakeups() {
    }

    /** Entry hook of {@code WaitNotifyObject.wakeupAll()}: notifies every waiting thread; false leaves it to stock. */
    public static boolean wakeupAll(WaitNotifyObject o) {
        if (o.getClass() != WaitNotifyObject.class) {
            return false;
        }
        for (Waiter w : of(o).waiters) {
            w.wake();
        }
        return true;
    }

    /**
     * Entry hook of {@code WaitNotifyObject.allWaitForRunning(long)}: returns at once when the calling thread has been
     * notified since its last wait, else waits until it is, {@code interval} ms pass (0: no limit, as
     * {@code Object.wait}) or it is interrupted. False leaves it to stock.
     */
    public static boolean allWaitForRunning(WaitNotifyObject o, long interval) {
        if (o.getClass() != WaitNotifyObject.class) {
            return false;
        }
        of(o).waiter(Thread.currentThread()).await(interval);
        return true;
    }

    /** Entry hook of {@code WaitNotifyObject.removeFromWaitingThreadTable()}; false leaves it to stock. */
    public static boolean removeFromWaitingThreadTable(WaitNotifyObject o) {
        if (o.getClass() != WaitNotifyObject.class) {
            return false;
        }
        of(o).remove(Thread.currentThread());
        return true;
    }

    /** Number of threads in {@code o}'s table: for tests. */
    static int waiting(WaitNotifyObject o) {
        return of(o).waiters.length;
    }

    private static Waiters of(WaitNotifyObject o) {
        Waiters w = last;
        if (w != null && w.owner.get() == o) {
            return w;
        }
        synchronized (ALL) {
            w = ALL.get(o);
            if (w == null) {
                w = new Waiters(o);
                ALL.put(o, w);
            }
            last = w;
            return w;
        }
    }

    /** The threads that wait on one object: an array replaced on each (rare) entry or removal, read without a lock. */
    private static final class Waiters {
        private static final Waiter[] NONE = new Waiter[0];

        /** Weak, so that the map's value does not keep its key. */
        final WeakReference<WaitNotifyObject> owner;
        volatile Waiter[] waiters = NONE;

        Waiters(WaitNotifyObject owner) {
            this.owner = new WeakReference<WaitNotifyObject>(owner);
        }

        Waiter waiter(Thread t) {
            for (Waiter w : waiters) {
                if (w.thread == t) {
                    return w;
                }
            }
            synchronized (this) {
                Waiter[] now = waiters;
                Waiter[] more = new Waiter[now.length + 1];
                System.arraycopy(now, 0, more, 0, now.length);
                Waiter w = new Waiter(t);
                more[now.length] = w;
                waiters = more;
                return w;
            }
        }

        synchronized void remove(Thread t) {
            Waiter[] now = waiters;
            for (int i = 0; i < now.length; i++) {
                if (now[i].thread == t) {
                    Waiter[] fewer = new Waiter[now.length - 1];
                    System.arraycopy(now, 0, fewer, 0, i);
                    System.arraycopy(now, i + 1, fewer, i, now.length - i - 1);
                    waiters = fewer;
                    return;
                }
            }
        }
    }

    /** One thread's entry in the table: stock's "notified" flag and its wait in one atomic state. */
    private static final class Waiter {
        static final int RUNNING = 0;
        static final int NOTIFIED = 1;
        static final int PARKED = 2;

        final Thread thread;
        /** Starts NOTIFIED: a put may have come between the thread's last look for work and its entry here. */
        final AtomicInteger state = new AtomicInteger(NOTIFIED);

        Waiter(Thread thread) {
            this.thread = thread;
        }

        void wake() {
            for (int s = state.get(); s != NOTIFIED; s = state.get()) {
                if (state.compareAndSet(s, NOTIFIED)) {
                    if (s == PARKED) {
                        LockSupport.unpark(thread);
                    }
                    return;
                }
            }
        }

        void await(long interval) {
            if (state.compareAndSet(NOTIFIED, RUNNING)) {
                return;
            }
            if (interval < 0) {
                // Object.wait's answer, after stock's finally has cleared the flag.
                state.getAndSet(RUNNING);
                throw new IllegalArgumentException("timeout value is negative");
            }
            boolean interrupted = false;
            if (state.compareAndSet(RUNNING, PARKED)) {
                long nanos = TimeUnit.MILLISECONDS.toNanos(interval);
                long start = System.nanoTime();
                while (state.get() == PARKED) {
                    if (Thread.interrupted()) {
                        interrupted = true;
                        break;
                    }
                    if (interval == 0) {
                        LockSupport.park(this);
                    } else {
                        long left = nanos - (System.nanoTime() - start);
                        if (left <= 0) {
                            break;
                        }
                        LockSupport.parkNanos(this, left);
                    }
                }
            }
            // Read, not only written: a waker's NOTIFIED read here orders its put before what this thread does next.
            state.getAndSet(RUNNING);
            if (interrupted) {
                // Stock logs the InterruptedException of its wait, which clears the interrupt as Thread.interrupted did.
                LOG.error("Interrupted", new InterruptedException());
            }
        }
    }
}
