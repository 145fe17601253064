package org.apache.rocketmq.store;

/**
 * For EncodeOutsideLockBenchmark: 4.9.0's {@code CommitLog$DefaultAppendMessageCallback} is package-private, so a
 * fresh one (as the CommitLog constructor makes it) is made here, in its package.
 */
public final class StockAppendCallback {

    private StockAppendCallback() {
    }

    public static AppendMessageCallback create(CommitLog commitLog, int maxMessageSize) {
        return commitLog.new DefaultAppendMessageCallback(maxMessageSize);
    }
}
