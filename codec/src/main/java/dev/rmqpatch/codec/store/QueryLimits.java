package dev.rmqpatch.codec.store;

import org.apache.rocketmq.store.index.IndexService;
import org.apache.rocketmq.store.index.QueryOffsetResult;

/**
 * S6, the index query: QUERY_MESSAGE (what {@code mqadmin queryMsgByKey} sends) passes its {@code maxNum} to
 * {@code IndexService.queryOffset}, which allocates {@code new ArrayList(maxNum)} before it cuts maxNum down to
 * {@code maxMsgsNumBatch} (64 by default): a request with maxNum 500,000,000 allocates 2 GB, from anyone who reaches the
 * port when the ACL is off (upstream moved the cut before the allocation in 5.3.3, #9265). Here maxNum is cut to
 * {@value #MAX_NUM} first; stock then cuts it to maxMsgsNumBatch as before, so the result is stock's for any
 * maxMsgsNumBatch up to that.
 */
public final class QueryLimits {

    /** Far above any sane maxMsgsNumBatch; an ArrayList of this capacity is 256 KB. */
    public static final int MAX_NUM = 65536;

    private QueryLimits() {
    }

    /** Replaces {@code indexService.queryOffset(...)} in {@code DefaultMessageStore.queryMessage}. */
    public static QueryOffsetResult queryOffset(IndexService index, String topic, String key, int maxNum, long begin, long end) {
        return index.queryOffset(topic, key, Math.min(maxNum, MAX_NUM), begin, end);
    }
}
