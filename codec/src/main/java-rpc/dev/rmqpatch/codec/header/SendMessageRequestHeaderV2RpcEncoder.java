package dev.rmqpatch.codec.header;

import static dev.rmqpatch.codec.header.ExtFields.putIfNotNull;

import java.util.Map;

import org.apache.rocketmq.common.protocol.header.SendMessageRequestHeaderV2;

/**
 * {@code SEND_MESSAGE_V2} request header as 4.9.7+ writes it (a client's send): the fields a..m of 4.9.0, {@code n}
 * (the broker name) and {@code bname} (from {@code RpcRequestHeader}), in the order of 4.9.7's
 * {@code getClazzFields}, a HashSet of the class's and its superclasses' fields. {@code n} is private without a
 * getter; {@code createSendMessageRequestHeaderV1} (public, static) copies it into the V1 header's {@code bname}, which
 * is how this reads it: one short-lived object per V2 header written (a client's send), no reflection.
 */
public final class SendMessageRequestHeaderV2RpcEncoder implements HeaderEncoder<SendMessageRequestHeaderV2> {


    @Override
    public Class<SendMessageRequestHeaderV2> headerClass() {
        return SendMessageRequestHeaderV2.class;
    }

    /** 4.9.7's and 4.9.8's order: bname e d g f a c b m l n i h k j (RpcHeaderEncodeDifferentialTest checks it against stock). */
    @Override
    public void write(SendMessageRequestHeaderV2 h, Map<String, String> ext) {
        // n has no getter (4.9.7, 4.9.8: javap); the release's own V2-to-V1 copy hands it over as the V1's bname.
        String n = SendMessageRequestHeaderV2.createSendMessageRequestHeaderV1(h).getBname();
        putIfNotNull(ext, "bname", h.getBname());
        putIfNotNull(ext, "e", h.getE());
        putIfNotNull(ext, "d", h.getD());
        putIfNotNull(ext, "g", h.getG());
        putIfNotNull(ext, "f", h.getF());
        putIfNotNull(ext, "a", h.getA());
        putIfNotNull(ext, "c", h.getC());
        putIfNotNull(ext, "b", h.getB());
        ext.put("m", Boolean.toString(h.isM()));
        putIfNotNull(ext, "l", h.getL());
        putIfNotNull(ext, "n", n);
        putIfNotNull(ext, "i", h.getI());
        putIfNotNull(ext, "h", h.getH());
        ext.put("k", Boolean.toString(h.isK()));
        putIfNotNull(ext, "j", h.getJ());
    }
}
