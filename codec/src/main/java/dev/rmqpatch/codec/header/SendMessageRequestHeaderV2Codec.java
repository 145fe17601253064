package dev.rmqpatch.codec.header;

import static dev.rmqpatch.codec.header.ExtFields.booleanValue;
import static dev.rmqpatch.codec.header.ExtFields.intValue;
import static dev.rmqpatch.codec.header.ExtFields.longValue;
import static dev.rmqpatch.codec.header.ExtFields.putIfNotNull;
import static dev.rmqpatch.codec.header.ExtFields.string;

import java.util.Map;

import org.apache.rocketmq.common.protocol.header.SendMessageRequestHeaderV2;
import org.apache.rocketmq.remoting.exception.RemotingCommandException;

/**
 * {@code SEND_MESSAGE_V2} request header, the one every 4.x producer sends: one-letter field names a..m
 * standing for the V1 fields in declaration order.
 */
public final class SendMessageRequestHeaderV2Codec implements HeaderCodec<SendMessageRequestHeaderV2> {

    @Override
    public Class<SendMessageRequestHeaderV2> headerClass() {
        return SendMessageRequestHeaderV2.class;
    }

    @Override
    public SendMessageRequestHeaderV2 decode(Map<String, String> ext) throws RemotingCommandException {
        SendMessageRequestHeaderV2 h = new SendMessageRequestHeaderV2();
        if (ext == null) {
            return h; // stock: an empty header, checkFields not called
        }
        String s;
        if ((s = string(ext, "a", true)) != null) { // producerGroup
            h.setA(s);
        }
        if ((s = string(ext, "b", true)) != null) { // topic
            h.setB(s);
        }
        if ((s = string(ext, "c", true)) != null) { // defaultTopic
            h.setC(s);
        }
        Integer i;
        if ((i = intValue(ext, "d", true)) != null) { // defaultTopicQueueNums
            h.setD(i);
        }
        if ((i = intValue(ext, "e", true)) != null) { // queueId
            h.setE(i);
        }
        if ((i = intValue(ext, "f", true)) != null) { // sysFlag
            h.setF(i);
        }
        Long l;
        if ((l = longValue(ext, "g", true)) != null) { // bornTimestamp
            h.setG(l);
        }
        if ((i = intValue(ext, "h", true)) != null) { // flag
            h.setH(i);
        }
        if ((s = string(ext, "i", false)) != null) { // properties
            h.setI(s);
        }
        if ((i = intValue(ext, "j", false)) != null) { // reconsumeTimes
            h.setJ(i);
        }
        Boolean b;
        if ((b = booleanValue(ext, "k")) != null) { // unitMode
            h.setK(b);
        }
        if ((i = intValue(ext, "l", false)) != null) { // maxReconsumeTimes
            h.setL(i);
        }
        if ((b = booleanValue(ext, "m")) != null) { // batch
            h.setM(b);
        }
        h.checkFields();
        return h;
    }

    @Override
    public void encode(SendMessageRequestHeaderV2 h, Map<String, String> ext) {
        putIfNotNull(ext, "a", h.getA());
        putIfNotNull(ext, "b", h.getB());
        putIfNotNull(ext, "c", h.getC());
        putIfNotNull(ext, "d", h.getD());
        putIfNotNull(ext, "e", h.getE());
        putIfNotNull(ext, "f", h.getF());
        putIfNotNull(ext, "g", h.getG());
        putIfNotNull(ext, "h", h.getH());
        putIfNotNull(ext, "i", h.getI());
        putIfNotNull(ext, "j", h.getJ());
        ext.put("k", Boolean.toString(h.isK()));
        putIfNotNull(ext, "l", h.getL());
        ext.put("m", Boolean.toString(h.isM()));
    }
}
