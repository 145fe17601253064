package dev.rmqpatch.codec.header;

import static dev.rmqpatch.codec.header.ExtFields.booleanValue;
import static dev.rmqpatch.codec.header.ExtFields.intValue;
import static dev.rmqpatch.codec.header.ExtFields.longValue;
import static dev.rmqpatch.codec.header.ExtFields.putIfNotNull;
import static dev.rmqpatch.codec.header.ExtFields.string;

import java.util.Map;

import org.apache.rocketmq.common.protocol.header.PullMessageResponseHeader;
import org.apache.rocketmq.remoting.exception.RemotingCommandException;

/**
 * Response to every pull (found, not found, offset moved...): the broker encodes it once per pull response, stock
 * does so by reflection. All four fields are {@code @CFNotNull} longs.
 */
public final class PullMessageResponseHeaderCodec implements HeaderCodec<PullMessageResponseHeader> {

    @Override
    public Class<PullMessageResponseHeader> headerClass() {
        return PullMessageResponseHeader.class;
    }

    @Override
    public PullMessageResponseHeader decode(Map<String, String> ext) throws RemotingCommandException {
        PullMessageResponseHeader h = new PullMessageResponseHeader();
        if (ext == null) {
            return h; // stock: an empty header, checkFields not called
        }
        Long l;
        if ((l = longValue(ext, "suggestWhichBrokerId", true)) != null) {
            h.setSuggestWhichBrokerId(l);
        }
        if ((l = longValue(ext, "nextBeginOffset", true)) != null) {
            h.setNextBeginOffset(l);
        }
        if ((l = longValue(ext, "minOffset", true)) != null) {
            h.setMinOffset(l);
        }
        if ((l = longValue(ext, "maxOffset", true)) != null) {
            h.setMaxOffset(l);
        }
        h.checkFields();
        return h;
    }

    /**
     * Keys go in in the fields' declaration order, as stock's reflection puts them: keys that share a HashMap bucket
     * iterate in insertion order, and the iteration order is the order on the wire.
     */
    @Override
    public void encode(PullMessageResponseHeader h, Map<String, String> ext) {
        putIfNotNull(ext, "suggestWhichBrokerId", h.getSuggestWhichBrokerId());
        putIfNotNull(ext, "nextBeginOffset", h.getNextBeginOffset());
        putIfNotNull(ext, "minOffset", h.getMinOffset());
        putIfNotNull(ext, "maxOffset", h.getMaxOffset());
    }
}
