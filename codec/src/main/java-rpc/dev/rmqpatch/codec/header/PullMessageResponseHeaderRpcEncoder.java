package dev.rmqpatch.codec.header;

import static dev.rmqpatch.codec.header.ExtFields.putIfNotNull;

import java.util.Map;

import org.apache.rocketmq.common.protocol.header.PullMessageResponseHeader;

/**
 * Response to every pull as a 4.9.7+ broker writes it: 4.9.0's four fields (no new one), in the order of 4.9.7's
 * {@code getClazzFields} (a HashSet), not in declaration order as 4.9.0's.
 */
public final class PullMessageResponseHeaderRpcEncoder implements HeaderEncoder<PullMessageResponseHeader> {

    @Override
    public Class<PullMessageResponseHeader> headerClass() {
        return PullMessageResponseHeader.class;
    }

    /** 4.9.7's and 4.9.8's order: maxOffset minOffset suggestWhichBrokerId nextBeginOffset (RpcHeaderEncodeDifferentialTest). */
    @Override
    public void write(PullMessageResponseHeader h, Map<String, String> ext) {
        putIfNotNull(ext, "maxOffset", h.getMaxOffset());
        putIfNotNull(ext, "minOffset", h.getMinOffset());
        putIfNotNull(ext, "suggestWhichBrokerId", h.getSuggestWhichBrokerId());
        putIfNotNull(ext, "nextBeginOffset", h.getNextBeginOffset());
    }
}
