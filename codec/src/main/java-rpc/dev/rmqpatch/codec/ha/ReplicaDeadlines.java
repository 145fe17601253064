package dev.rmqpatch.codec.ha;

import org.apache.rocketmq.store.CommitLog;
import org.apache.rocketmq.store.ha.HAService;

/**
 * P13's put on 4.9.3 to 4.9.8: {@code HAService.putRequest(GroupCommitRequest)} delegates here, and the request waits
 * in {@link ReplicaAcks} until its own deadline, {@code GroupCommitRequest.getDeadLine()} ({@code System.nanoTime()} at
 * its creation plus {@code slaveTimeout}), as those releases' stock {@code doWaitTransfer} does. Compiled against
 * 4.9.7's store (src/main/java-rpc), since 4.9.0's request has no deadline: a direct call, no reflection. On 4.9.0 the
 * class still loads and initialises, but its one method would not link (the patch plan's link check and P13's witness
 * keep it off there).
 */
public final class ReplicaDeadlines {

    private ReplicaDeadlines() {
    }

    /** Replaces {@code HAService.putRequest(GroupCommitRequest)} on 4.9.3 to 4.9.8 (P13's variant). */
    public static void putRequestUntilDeadline(HAService ha, CommitLog.GroupCommitRequest request) {
        ReplicaAcks.putUntil(ha, request, request.getDeadLine());
    }
}
