package dev.rmqpatch.codec.header;

import static dev.rmqpatch.codec.header.ExtFields.optionalBoolean;
import static dev.rmqpatch.codec.header.ExtFields.optionalInt;
import static dev.rmqpatch.codec.header.ExtFields.optionalString;
import static dev.rmqpatch.codec.header.ExtFields.putIfNotNull;
import static dev.rmqpatch.codec.header.ExtFields.requireInt;
import static dev.rmqpatch.codec.header.ExtFields.requireLong;
import static dev.rmqpatch.codec.header.ExtFields.requireString;

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
        h.setA(requireString(ext, "a"));   // producerGroup
        h.setB(requireString(ext, "b"));   // topic
        h.setC(requireString(ext, "c"));   // defaultTopic
        h.setD(requireInt(ext, "d"));      // defaultTopicQueueNums
        h.setE(requireInt(ext, "e"));      // queueId
        h.setF(requireInt(ext, "f"));      // sysFlag
        h.setG(requireLong(ext, "g"));     // bornTimestamp
        h.setH(requireInt(ext, "h"));      // flag
        h.setI(optionalString(ext, "i"));  // properties
        h.setJ(optionalInt(ext, "j"));     // reconsumeTimes
        h.setK(optionalBoolean(ext, "k")); // unitMode
        h.setL(optionalInt(ext, "l"));     // maxReconsumeTimes
        h.setM(optionalBoolean(ext, "m")); // batch
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
