package dev.rmqpatch.patches;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.Socket;
import java.nio.file.Path;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.concurrent.atomic.AtomicInteger;

import org.apache.rocketmq.client.producer.DefaultMQProducer;
import org.apache.rocketmq.client.producer.SendResult;
import org.apache.rocketmq.client.producer.SendStatus;
import org.apache.rocketmq.common.message.Message;
import org.apache.rocketmq.common.protocol.RequestCode;
import org.apache.rocketmq.common.protocol.ResponseCode;
import org.apache.rocketmq.remoting.netty.NettyClientConfig;
import org.apache.rocketmq.remoting.netty.NettyRemotingClient;
import org.apache.rocketmq.remoting.protocol.RemotingCommand;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestMethodOrder;

/**
 * Hand-built SEND_MESSAGE_V2 requests, sent with a raw stock remoting client to the patched broker: each malformed
 * one gets the answer stock gives it (a missing or malformed header field is logged and left unset, as stock does), the broker keeps serving this and other clients,
 * and the CommitLog ends up holding exactly the well-formed messages.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class MalformedSendIT {

    private static final String TOPIC = "MalformedSendIT";
    private static final String BAD_BODY = "BAD-REQUEST-BODY";
    private static final int PROPERTIES_LIMIT = Short.MAX_VALUE;

    private TestCluster cluster;
    private NettyRemotingClient client;
    private final AtomicInteger stored = new AtomicInteger();

    /** The JDK the servers run on; null: the one the tests run on. */
    Path serverJdk() {
        return null;
    }

    @BeforeAll
    void start() throws Exception {
        Path jdk = serverJdk();
        cluster = new TestCluster(TestCluster.dist("patched"), "broker.conf").javaHome(jdk).start();
        client = new NettyRemotingClient(new NettyClientConfig());
        client.start();
    }

    @AfterAll
    void stop() throws Exception {
        try {
            if (client != null) {
                client.shutdown();
            }
        } finally {
            if (cluster != null) {
                cluster.close();
            }
        }
    }

    @Test
    @Order(1)
    void wellFormedRequestIsStored() throws Exception {
        RemotingCommand r = send(fields(), "good-1");
        assertEquals(ResponseCode.SUCCESS, r.getCode(), r.getRemark());
        stored.incrementAndGet();
    }

    @Test
    @Order(2)
    void missingTopicGoesOnAsStock() throws Exception {
        HashMap<String, String> f = fields();
        f.remove("b");
        RemotingCommand r = send(f, BAD_BODY);
        // As stock 4.9.0: the decode logs the missing field and the send processor gets the header with a null topic.
        assertEquals(ResponseCode.SYSTEM_ERROR, r.getCode(), r.getRemark());
        assertFalse(String.valueOf(r.getRemark()).contains("custom field"), r.getRemark());
    }

    @Test
    @Order(3)
    void nonNumericQueueIdGoesOnAsStock() throws Exception {
        HashMap<String, String> f = fields();
        f.put("e", "three");
        RemotingCommand r = send(f, BAD_BODY);
        // Stock 4.9.0 logs the bad field, leaves queueId null and answers with a bare NullPointerException; so does P1.
        assertEquals(ResponseCode.SYSTEM_ERROR, r.getCode(), r.getRemark());
        assertFalse(String.valueOf(r.getRemark()).contains("custom field"), r.getRemark());
    }

    @Test
    @Order(4)
    void garbageDelayLevelIsRejected() throws Exception {
        HashMap<String, String> f = fields();
        f.put("i", "DELAY\u0001soon\u0002WAIT\u0001true");
        RemotingCommand r = send(f, BAD_BODY);
        assertEquals(ResponseCode.SYSTEM_ERROR, r.getCode());
        assertTrue(r.getRemark().contains("NumberFormatException") && r.getRemark().contains("soon"), r.getRemark());
    }

    @Test
    @Order(5)
    void oversizedPropertiesAreRejectedByTheStore() throws Exception {
        HashMap<String, String> f = fields();
        f.put("i", "WAIT\u0001true\u0002big\u0001" + "x".repeat(PROPERTIES_LIMIT));
        RemotingCommand r = send(f, BAD_BODY);
        assertEquals(ResponseCode.MESSAGE_ILLEGAL, r.getCode(), r.getRemark());
        assertTrue(r.getRemark().contains("properties length limit 32k"), r.getRemark());
    }

    /**
     * Raw frames on a socket of their own, as a client that is not RocketMQ's might write them: what stock cannot
     * decode closes the connection (NettyDecoder), as on a stock broker; a header stock decodes (invalid UTF-8
     * becomes U+FFFD there) is served.
     */
    @Test
    @Order(6)
    void malformedJsonFramesCloseTheirConnection() throws Exception {
        String good = "{\"code\":310,\"opaque\":1,\"flag\":0,\"language\":\"JAVA\",\"version\":373,\"extFields\":"
            + "{\"a\":\"malformed-it-producer\",\"b\":\"" + TOPIC + "\",\"c\":\"TBW102\",\"d\":\"4\",\"e\":\"0\","
            + "\"f\":\"0\",\"g\":\"1700000000000\",\"h\":\"0\",\"i\":\"WAIT\\u0001true\\u0002\",\"j\":\"0\","
            + "\"k\":\"false\",\"m\":\"false\"}";
        byte[] body = BAD_BODY.getBytes(StandardCharsets.UTF_8);
        assertClosed(frame(utf8(good.substring(0, good.length() - 40)), body), "truncated header");
        byte[] pastTheFrame = frame(utf8(good + "}"), body);
        ByteBuffer.wrap(pastTheFrame).putInt(4, pastTheFrame.length);
        assertClosed(pastTheFrame, "header length past the frame");
        assertClosed(frame(utf8(good + ",\"remark\":" + "[".repeat(100_000) + "]".repeat(100_000) + "}"), body),
            "nesting bomb");
        assertClosed(frame(utf8("{\"code\":" + "9".repeat(100_000) + good.substring(good.indexOf(',')) + "}"), body),
            "huge number");
        assertClosed(frame(utf8("{\"code\":99999999999" + good.substring(good.indexOf(',')) + "}"), body), "int overflow");

        java.io.ByteArrayOutputStream invalidUtf8 = new java.io.ByteArrayOutputStream();
        invalidUtf8.writeBytes(utf8(good + ",\"remark\":\"a"));
        invalidUtf8.writeBytes(new byte[] {(byte) 0xC3, 0x28, (byte) 0xFF});
        invalidUtf8.writeBytes(utf8("\"}"));
        RemotingCommand r = exchange(frame(invalidUtf8.toByteArray(), "good-utf8".getBytes(StandardCharsets.UTF_8)));
        assertEquals(ResponseCode.SUCCESS, r.getCode(), "a header stock decodes is served: " + r.getRemark());
        stored.incrementAndGet();
    }

    /**
     * A SEND_MESSAGE_V2 header as a client in another language might write it: fields in another order, whitespace,
     * an unknown field, escapes where none are needed, the properties separators as lower-case u-escapes. The
     * patched broker reads it as stock does and stores the message.
     */
    @Test
    @Order(7)
    void headerInAnotherClientsStyleIsServed() throws Exception {
        String header = " {\n  \"opaque\" : 77,\n  \"flag\" : 0,\n  \"language\" : \"GO\",\n  \"traceId\" : \"x-1\",\n"
            + "  \"extFields\" : {\n    \"b\" : \"" + TOPIC + "\", \"a\" : \"malformed-it-\\u0070roducer\",\n"
            + "    \"c\":\"TBW102\",\"d\":\"4\",\"e\":\"0\",\"f\":\"0\",\"g\":\"1700000000000\",\"h\":\"0\",\n"
            + "    \"i\" : \"WAIT\\u0001true\\u0002TAGS\\u0001go\\/style\\u0002\", \"j\":\"0\", \"k\":\"false\", \"m\":\"false\"\n"
            + "  },\n  \"code\" : 310, \"version\" : 0\n}\n";
        RemotingCommand r = exchange(frame(utf8(header), "other-style".getBytes(StandardCharsets.UTF_8)));
        assertEquals(ResponseCode.SUCCESS, r.getCode(), r.getRemark());
        assertEquals(77, r.getOpaque(), "the response answers the request's opaque");
        stored.incrementAndGet();
    }

    @Test
    @Order(8)
    void brokerKeepsServingThisAndOtherClients() throws Exception {
        RemotingCommand r = send(fields(), "good-2");
        assertEquals(ResponseCode.SUCCESS, r.getCode(), r.getRemark());
        stored.incrementAndGet();
        DefaultMQProducer producer = new DefaultMQProducer("malformed-it-producer");
        producer.setNamesrvAddr(cluster.namesrvAddr());
        producer.setSendMsgTimeout(StockClientRoundTrip.SEND_TIMEOUT_MS);
        producer.start();
        try {
            SendResult result = producer.send(new Message(TOPIC, "tag", "good-3".getBytes(StandardCharsets.UTF_8)));
            assertEquals(SendStatus.SEND_OK, result.getSendStatus());
            stored.incrementAndGet();
        } finally {
            producer.shutdown();
        }
    }

    @Test
    @Order(9)
    void nothingOfTheBadRequestsWasStored() throws Exception {
        cluster.stopBroker();
        DropInIT.Scan scan = DropInIT.scan(cluster.commitLogDir(), BAD_BODY.getBytes(StandardCharsets.UTF_8));
        assertEquals(stored.get(), scan.messages, "only the well-formed messages are in the CommitLog");
        assertEquals(0, scan.matches, "no bad request body in the CommitLog");
    }

    private static byte[] utf8(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    /** A whole frame: total length, header length (JSON), header, body. */
    private static byte[] frame(byte[] header, byte[] body) {
        return ByteBuffer.allocate(8 + header.length + body.length).putInt(4 + header.length + body.length)
            .putInt(header.length).put(header).put(body).array();
    }

    private Socket connect() throws Exception {
        String[] hostPort = cluster.brokerAddr().split(":");
        Socket socket = new Socket(hostPort[0], Integer.parseInt(hostPort[1]));
        socket.setSoTimeout(15_000);
        return socket;
    }

    private void assertClosed(byte[] frame, String what) throws Exception {
        try (Socket socket = connect()) {
            socket.getOutputStream().write(frame);
            socket.getOutputStream().flush();
            int read;
            try {
                read = socket.getInputStream().read();
            } catch (java.net.SocketException reset) {
                read = -1;
            }
            assertEquals(-1, read, what + ": the broker closes the connection, as stock does");
        }
    }

    private RemotingCommand exchange(byte[] frame) throws Exception {
        try (Socket socket = connect()) {
            socket.getOutputStream().write(frame);
            socket.getOutputStream().flush();
            java.io.DataInputStream in = new java.io.DataInputStream(socket.getInputStream());
            byte[] response = new byte[in.readInt()];
            in.readFully(response);
            return RemotingCommand.decode(response);
        }
    }

    private RemotingCommand send(HashMap<String, String> ext, String body) throws Exception {
        // No custom header object: the ext fields go on the wire exactly as built here.
        RemotingCommand request = RemotingCommand.createRequestCommand(RequestCode.SEND_MESSAGE_V2, null);
        request.setExtFields(ext);
        request.setBody(body.getBytes(StandardCharsets.UTF_8));
        return client.invokeSync(cluster.brokerAddr(), request, 15_000);
    }

    /** A well-formed SendMessageRequestHeaderV2 as a 4.9.0 producer writes it. */
    private static HashMap<String, String> fields() {
        HashMap<String, String> ext = new HashMap<>();
        ext.put("a", "malformed-it-producer");
        ext.put("b", TOPIC);
        ext.put("c", "TBW102");
        ext.put("d", "4");
        ext.put("e", "0");
        ext.put("f", "0");
        ext.put("g", Long.toString(System.currentTimeMillis()));
        ext.put("h", "0");
        ext.put("i", "WAIT\u0001true\u0002TAGS\u0001raw\u0002");
        ext.put("j", "0");
        ext.put("k", "false");
        ext.put("m", "false");
        return ext;
    }
}
