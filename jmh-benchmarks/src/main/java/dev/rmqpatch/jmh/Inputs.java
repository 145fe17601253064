package dev.rmqpatch.jmh;

import java.nio.ByteBuffer;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;

import org.apache.rocketmq.common.message.MessageConst;
import org.apache.rocketmq.common.message.MessageDecoder;
import org.apache.rocketmq.common.protocol.RequestCode;
import org.apache.rocketmq.common.protocol.header.SendMessageRequestHeader;
import org.apache.rocketmq.common.protocol.header.SendMessageRequestHeaderV2;
import org.apache.rocketmq.remoting.protocol.RemotingCommand;
import org.apache.rocketmq.remoting.protocol.SerializeType;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/**
 * The realistic inputs every benchmark shares: what a RocketMQ 4.9.0 producer sends with one message, built the
 * way the 4.9.0 client builds it, so stock and patched code see the bytes a broker sees.
 *
 * <ul>
 *   <li>{@code typical}: the properties a 4.9.0 {@code DefaultMQProducer} puts on a message (UNIQ_KEY from
 *       {@code MessageClientIDSetter}, WAIT=true, TAGS, KEYS) plus four user properties; about 200 chars.</li>
 *   <li>{@code large}: the same plus 40 user properties of ~50 chars each (about 2.6 KB), the kind of message
 *       that carries tracing and routing context in its properties.</li>
 * </ul>
 * The properties string is the stock client's encoding ({@code messageProperties2String} over the message's
 * HashMap, trailing separator included). The SEND_MESSAGE_V2 request is the client's V1 header converted to V2,
 * encoded by stock {@code RemotingCommand.encode()} (JSON header, 300-byte body) and decoded by stock
 * {@code RemotingCommand.decode}, so its ext fields are exactly the map the broker's send processor receives; its
 * JSON header bytes are kept too, for the header decode itself.
 */
@State(Scope.Benchmark)
public class Inputs {

    public static final String TYPICAL = "typical";
    public static final String LARGE = "large";

    /** Cluster name the broker adds as the CLUSTER property of every message (BrokerConfig default). */
    public static final String CLUSTER_NAME = "DefaultCluster";

    /** What the store reports back and the broker puts in the response header. */
    public static final String MSG_ID = "7F00000100002A9F00000000001E2A4C";
    public static final int QUEUE_ID = 2;
    public static final long QUEUE_OFFSET = 1_234_567L;

    /** Body size of the request; the body plays no part in the codec work, it only makes the frame realistic. */
    static final int BODY_SIZE = 300;

    @Param({TYPICAL, LARGE})
    public String input;

    /** The properties string as the producer sends it (field {@code i} of the V2 header). */
    public String properties;

    /** The message's properties as the broker holds them before storing: the parsed string plus CLUSTER. */
    public Map<String, String> brokerProperties;

    /** A SEND_MESSAGE_V2 request as the broker's decoder hands it over: code and ext fields. */
    public RemotingCommand request;

    /**
     * The JSON header of that request's frame, as {@code RemotingCommand.decode} cuts it out of the frame and hands
     * it to {@code headerDecode}: written by the 4.9.0 client code (fastjson), properties separators escaped.
     */
    public byte[] requestHeader;

    /** For tests: inputs of one kind, set up as JMH would. */
    public static Inputs of(String input) {
        Inputs in = new Inputs();
        in.input = input;
        in.setup();
        return in;
    }

    @Setup
    public void setup() {
        properties = producerProperties(input);
        brokerProperties = MessageDecoder.string2messageProperties(properties);
        brokerProperties.put(MessageConst.PROPERTY_CLUSTER, CLUSTER_NAME);
        request = sendRequest(properties);
        requestHeader = jsonHeader(sendRequestFrame(properties));
    }

    /** Producer-side properties string for {@code kind}, encoded by the stock 4.9.0 client code. */
    static String producerProperties(String kind) {
        // Message's own map is a HashMap; its iteration order decides the string's order, as on a real client.
        Map<String, String> props = new HashMap<>();
        props.put(MessageConst.PROPERTY_TAGS, "OrderCreated");
        props.put(MessageConst.PROPERTY_KEYS, "ORD-20240611-000123456");
        props.put(MessageConst.PROPERTY_WAIT_STORE_MSG_OK, "true");
        props.put(MessageConst.PROPERTY_UNIQ_CLIENT_MESSAGE_ID_KEYIDX, "0A0B0C0D4E2F18B4AAC27A9B3F6D0001");
        props.put("traceId", "4bf92f3577b34da6a3ce929d0e0e4736");
        props.put("tenant", "acme-eu");
        props.put("source", "checkout-service");
        props.put("schemaVersion", "3");
        switch (kind) {
            case TYPICAL:
                break;
            case LARGE:
                props.put(MessageConst.PROPERTY_KEYS, "ORD-20240611-000123456 CUST-88412 CART-5f2c9e1a");
                props.putAll(largeUserProperties());
                break;
            default:
                throw new IllegalArgumentException("unknown input kind '" + kind + "'; expected " + TYPICAL + " or " + LARGE);
        }
        return MessageDecoder.messageProperties2String(props);
    }

    private static Map<String, String> largeUserProperties() {
        Map<String, String> user = new LinkedHashMap<>();
        String[] regions = {"eu-west-1", "eu-central-1", "us-east-2", "ap-southeast-1"};
        for (int i = 0; i < 40; i++) {
            String name = String.format("ctx.attr%02d", i);
            String value = String.format("%s|span=%016x|route=%s|z=Zürich-%03d",
                regions[i % regions.length], 0x9E3779B97F4A7C15L * (i + 1), "svc-" + (i * 7 % 13), i);
            user.put(name, value);
        }
        return user;
    }

    /** The V2 request the 4.9.0 client sends for one message, with the ext fields the broker receives. */
    static RemotingCommand sendRequest(String properties) {
        // Through the wire format and back, as NettyEncoder and NettyDecoder (frame length stripped) do, so the
        // ext-fields map, its capacity and its key and value strings are what fastjson gives the broker.
        return RemotingCommand.decode(sendRequestFrame(properties));
    }

    /** The frame of that request as NettyDecoder hands it to RemotingCommand.decode: the frame length stripped. */
    static ByteBuffer sendRequestFrame(String properties) {
        SendMessageRequestHeader v1 = new SendMessageRequestHeader();
        v1.setProducerGroup("order-service-producer");
        v1.setTopic("order-events");
        v1.setDefaultTopic("TBW102");
        v1.setDefaultTopicQueueNums(4);
        v1.setQueueId(QUEUE_ID);
        v1.setSysFlag(0);
        v1.setBornTimestamp(1_718_000_000_123L);
        v1.setFlag(0);
        v1.setProperties(properties);
        v1.setReconsumeTimes(0);
        v1.setUnitMode(false);
        v1.setBatch(false);
        SendMessageRequestHeaderV2 v2 = SendMessageRequestHeaderV2.createSendMessageRequestHeaderV2(v1);

        RemotingCommand clientSide = RemotingCommand.createRequestCommand(RequestCode.SEND_MESSAGE_V2, v2);
        clientSide.setBody(new byte[BODY_SIZE]);
        ByteBuffer wire = clientSide.encode();
        wire.getInt();
        return wire.slice();
    }

    /** The header bytes of a frame (header length and serialize type first, as RemotingCommand.decode reads them). */
    static byte[] jsonHeader(ByteBuffer frame) {
        ByteBuffer f = frame.duplicate();
        int lengthAndType = f.getInt();
        if (RemotingCommand.getProtocolType(lengthAndType) != SerializeType.JSON) {
            throw new IllegalStateException("the 4.9.0 client writes JSON headers unless told otherwise");
        }
        byte[] header = new byte[RemotingCommand.getHeaderLength(lengthAndType)];
        f.get(header);
        return header;
    }
}
