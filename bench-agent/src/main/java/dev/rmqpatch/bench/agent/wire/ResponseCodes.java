package dev.rmqpatch.bench.agent.wire;

import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.util.HashMap;
import java.util.Map;
import org.apache.rocketmq.common.protocol.ResponseCode;
import org.apache.rocketmq.remoting.protocol.RemotingCommand;

/** Response codes of a send as the wire client counts them: the stock client's send statuses, and names for the rest. */
public final class ResponseCodes {
    private static final Map<Integer, String> NAMES = new HashMap<>();

    static {
        // ResponseCode extends RemotingSysResponseCode: getFields() sees both sets of constants.
        for (Field f : ResponseCode.class.getFields()) {
            if (Modifier.isStatic(f.getModifiers()) && f.getType() == int.class) {
                try {
                    NAMES.putIfAbsent(f.getInt(null), f.getName());
                } catch (IllegalAccessException e) {
                    throw new IllegalStateException(e);
                }
            }
        }
    }

    private ResponseCodes() {
    }

    /**
     * The SendStatus name the stock client reports for a code it treats as stored (processSendResponse), or null when
     * the stock client would throw MQBrokerException.
     */
    public static String sendStatus(int code) {
        switch (code) {
            case ResponseCode.SUCCESS:
                return "SEND_OK";
            case ResponseCode.FLUSH_DISK_TIMEOUT:
                return "FLUSH_DISK_TIMEOUT";
            case ResponseCode.FLUSH_SLAVE_TIMEOUT:
                return "FLUSH_SLAVE_TIMEOUT";
            case ResponseCode.SLAVE_NOT_AVAILABLE:
                return "SLAVE_NOT_AVAILABLE";
            default:
                return null;
        }
    }

    public static String name(int code) {
        return NAMES.getOrDefault(code, "UNKNOWN");
    }

    /**
     * The error kind of a refused send: code and name, plus the bracketed tag the broker puts in front of its
     * flow-control remarks ([PCBUSY_CLEAN_QUEUE], [TIMEOUT_CLEAN_QUEUE], [REJECTREQUEST] ...), which say which limit hit.
     */
    public static String errorKey(int code, String remark) {
        String key = "BrokerResponse(code=" + code + " " + name(code);
        if (remark != null && remark.startsWith("[")) {
            int end = remark.indexOf(']');
            if (end > 0 && end < 40) {
                key += " " + remark.substring(0, end + 1);
            }
        }
        return key + ")";
    }

    /**
     * The remark of the response frame of {@code length} bytes at {@code frame}'s reader index (header-length field
     * first), decoded with stock code; only for failures.
     */
    public static String remark(io.netty.buffer.ByteBuf frame, int length) {
        try {
            byte[] bytes = new byte[length];
            frame.getBytes(frame.readerIndex(), bytes);
            RemotingCommand cmd = RemotingCommand.decode(bytes);
            return cmd.getRemark();
        } catch (RuntimeException e) {
            return "(undecodable response: " + e + ")";
        }
    }
}
