package dev.rmqpatch.codec.ha;

import java.io.IOException;
import java.nio.channels.Selector;

import dev.rmqpatch.codec.switches.PatchSwitches;

/**
 * P25. A SYNC_MASTER's {@code HAConnection$WriteSocketService.run()} (4.9.0) starts every round with
 * {@code selector.select(1000)} on its socket, registered for OP_WRITE: it waits for room in the socket after a
 * transfer the socket did not take whole ({@code transferData()} returned false). After any other round (a transfer
 * sent whole, a heartbeat, nothing to send) the socket has room, so the select returns at once: a system call (an
 * epoll_wait) and the selector's locks and key processing twice per transfer, for nothing. Here the select is made
 * only when the thread's last write left bytes unsent, which is exactly when {@code transferData()} returned false;
 * otherwise it answers 0 (no key selected, which run() ignores as it ignores stock's count) without a system call.
 *
 * <p>It learns how the last write went from {@link HaGatherWrite}, through which P23 routes both of
 * {@code transferData()}'s writes, so it acts only while P23 is on; with P23 switched off every select is stock's.
 * A round that finds little or no room although its last write went out whole (the slave falling behind, the socket
 * filling) writes what fits and gets stock's three zero-length writes and {@code false} from {@code transferData()}
 * before it selects, where stock's select would have waited first: the same bytes in the same order, up to three
 * more write calls each time the socket fills.
 */
public final class HaWriteSelect {

    private static final ThreadLocal<long[]> SKIPPED = new ThreadLocal<long[]>() {
        @Override
        protected long[] initialValue() {
            return new long[1];
        }
    };

    private HaWriteSelect() {
    }

    /** Replaces {@code selector.select(1000)} at the top of {@code WriteSocketService.run()}'s loop. */
    public static int select(Selector selector, long timeout) throws IOException {
        return select(selector, timeout, PatchSwitches.P23);
    }

    /** {@link #select(Selector, long)} with P23's switch as an argument, for tests. */
    static int select(Selector selector, long timeout, boolean gatherWriteOn) throws IOException {
        if (gatherWriteOn && !HaGatherWrite.lastWriteLeftBytes()) {
            SKIPPED.get()[0]++;
            return 0;
        }
        return selector.select(timeout);
    }

    /** Selects this thread had answered without a system call, for tests and benchmarks. */
    public static long skipped() {
        return SKIPPED.get()[0];
    }

    /** Forgets this thread's count, for tests and benchmarks. */
    public static void reset() {
        SKIPPED.get()[0] = 0;
    }
}
