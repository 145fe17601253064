package dev.rmqpatch.bench.broker;

/**
 * Master and slave CommitLog max offsets read after the load stopped (ms-sync topology). With SYNC_MASTER every
 * acknowledged message was already on the slave, so the two are equal unless replication broke or fell behind.
 */
public final class Replication {
    public String masterAddr;
    public String slaveAddr;
    public long masterCommitLogMaxOffset;
    public long slaveCommitLogMaxOffset;
    /** masterCommitLogMaxOffset - slaveCommitLogMaxOffset at the last reading; 0 when caught up. */
    public long slaveBehindBytes;
    /** How long after the first reading the offsets matched (or the wait gave up). */
    public long waitedMillis;
    /** CPU of the slave JVM per message stored on the master in the measurement window. */
    public Double slaveCpuUsPerMsg;
    /** Cores' worth of CPU the slave JVM used on average in the measurement window. */
    public Double slaveCores;

    public boolean caughtUp() {
        return slaveBehindBytes == 0;
    }
}
