package dev.rmqpatch.codec.store;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;

import org.apache.rocketmq.common.ServiceThread;
import org.apache.rocketmq.store.CommitLog.GroupCommitRequest;
import org.apache.rocketmq.store.DefaultMessageStore;
import org.apache.rocketmq.store.MappedFileQueue;
import org.apache.rocketmq.store.PutMessageStatus;

/**
 * P22. The request lists of {@code CommitLog$GroupCommitService} (SYNC_FLUSH) behind one small spin lock, the rest of
 * upstream's 4.9.1 change (apache/rocketmq#2885). Stock adds a request under {@code synchronized(requestsWrite)}
 * (inside the synchronized {@code putRequest}), and the flush thread holds {@code synchronized(requestsRead)} for its
 * whole {@code doCommit}, fsync included: a sender that read the write list just before the swap waits for that
 * flush while holding the service's monitor, so every other sender waits too. Here the add and the swap exclude each
 * other with a spin lock held for a few instructions, and the list the flush thread works on is its own once swapped,
 * so it needs no lock.
 *
 * <p>The service's constructor builds two of these in place of its two {@code new ArrayList()}; the one in
 * {@code requestsWrite} holds both lists (which the patched {@code swapRequests} swaps inside it, so the service's
 * fields never change) and the lock; the ArrayList it extends (the fields' type) stays empty. {@link #doCommit} is
 * stock's {@code doCommit} on the read list: each request in order, flushed (at most twice) up to its next offset
 * and completed PUT_OK or FLUSH_DISK_TIMEOUT, the checkpoint's physical timestamp set, the list cleared; with no
 * request a flush.
 */
public final class GroupCommitQueue extends ArrayList<Object> {

    private static final long serialVersionUID = 1L;

    private final transient AtomicBoolean locked = new AtomicBoolean();
    /** Guarded by {@link #locked}. */
    private transient List<GroupCommitRequest> write = new ArrayList<GroupCommitRequest>();
    /** The flush thread's: written only by {@link #swap} (under the lock) on that thread. */
    private transient List<GroupCommitRequest> read = new ArrayList<GroupCommitRequest>();

    GroupCommitQueue() {
        super(0);
    }

    /** Replaces each {@code new ArrayList()} in the service's constructor. */
    public static ArrayList<Object> newQueue() {
        return new GroupCommitQueue();
    }

    /** Body of {@code putRequest} (still a synchronized method, as in 4.9.1): the add under the spin lock, then wakeup. */
    public static void putRequest(List<?> requestsWrite, ServiceThread service, GroupCommitRequest request) {
        ((GroupCommitQueue) requestsWrite).put(request);
        service.wakeup();
    }

    /** Body of {@code swapRequests}: the two lists swapped under the spin lock. */
    public static void swapRequests(List<?> requestsWrite) {
        ((GroupCommitQueue) requestsWrite).swap();
    }

    /** Body of {@code doCommit}: stock's, on the read list, without a monitor. */
    public static void doCommit(List<?> requestsWrite, MappedFileQueue mappedFileQueue, DefaultMessageStore store) {
        List<GroupCommitRequest> requests = ((GroupCommitQueue) requestsWrite).read;
        if (!requests.isEmpty()) {
            for (GroupCommitRequest req : requests) {
                // There may be a message in the next file, so at most two flushes (stock's comment and loop).
                boolean flushOK = mappedFileQueue.getFlushedWhere() >= req.getNextOffset();
                for (int i = 0; i < 2 && !flushOK; i++) {
                    mappedFileQueue.flush(0);
                    flushOK = mappedFileQueue.getFlushedWhere() >= req.getNextOffset();
                }
                req.wakeupCustomer(flushOK ? PutMessageStatus.PUT_OK : PutMessageStatus.FLUSH_DISK_TIMEOUT);
            }
            long storeTimestamp = mappedFileQueue.getStoreTimestamp();
            if (storeTimestamp > 0) {
                store.getStoreCheckpoint().setPhysicMsgTimestamp(storeTimestamp);
            }
            requests.clear();
        } else {
            // Messages that are not to be waited for (WAIT=false) under SYNC_FLUSH come here.
            mappedFileQueue.flush(0);
        }
    }

    /** Adds a request to the write list. */
    void put(GroupCommitRequest request) {
        lock();
        try {
            write.add(request);
        } finally {
            locked.set(false);
        }
    }

    /** The write list becomes the read list and the (drained) read list the write list. */
    void swap() {
        lock();
        try {
            List<GroupCommitRequest> tmp = write;
            write = read;
            read = tmp;
        } finally {
            locked.set(false);
        }
    }

    /** The read list (the flush thread's). */
    List<GroupCommitRequest> read() {
        return read;
    }

    private void lock() {
        int spins = 0;
        while (!locked.compareAndSet(false, true)) {
            // Held for a few instructions; yield now and then in case its holder was descheduled (few cores).
            if (++spins % 64 == 0) {
                Thread.yield();
            }
        }
    }
}
