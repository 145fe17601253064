package dev.rmqpatch.patches;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

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
import org.junit.jupiter.api.TestMethodOrder;

/**
 * Hand-built SEND_MESSAGE_V2 requests, sent with a raw stock remoting client to the patched broker: each malformed
 * one gets an error response whose remark says what is wrong, the broker keeps serving this and other clients,
 * and the CommitLog ends up holding exactly the well-formed messages.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class MalformedSendIT {

    private static final String TOPIC = "MalformedSendIT";
    private static final String BAD_BODY = "BAD-REQUEST-BODY";
    private static final int PROPERTIES_LIMIT = Short.MAX_VALUE;

    private static LocalCluster cluster;
    private static NettyRemotingClient client;
    private static final AtomicInteger stored = new AtomicInteger();

    @BeforeAll
    static void start() throws Exception {
        cluster = new LocalCluster(LocalCluster.dist("patched"), "broker.conf").start();
        client = new NettyRemotingClient(new NettyClientConfig());
        client.start();
    }

    @AfterAll
    static void stop() throws Exception {
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
    void missingTopicNamesTheField() throws Exception {
        HashMap<String, String> f = fields();
        f.remove("b");
        RemotingCommand r = send(f, BAD_BODY);
        assertEquals(ResponseCode.SYSTEM_ERROR, r.getCode());
        assertTrue(r.getRemark().contains("RemotingCommandException") && r.getRemark().contains("<b> is null"), r.getRemark());
    }

    @Test
    @Order(3)
    void nonNumericQueueIdNamesFieldAndValue() throws Exception {
        HashMap<String, String> f = fields();
        f.put("e", "three");
        RemotingCommand r = send(f, BAD_BODY);
        assertEquals(ResponseCode.SYSTEM_ERROR, r.getCode());
        // Stock 4.9.0 logs the bad field, leaves queueId null and answers with a bare NullPointerException.
        assertTrue(r.getRemark().contains("<e> is not an int") && r.getRemark().contains("three"), r.getRemark());
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

    @Test
    @Order(6)
    void brokerKeepsServingThisAndOtherClients() throws Exception {
        RemotingCommand r = send(fields(), "good-2");
        assertEquals(ResponseCode.SUCCESS, r.getCode(), r.getRemark());
        stored.incrementAndGet();
        DefaultMQProducer producer = new DefaultMQProducer("malformed-it-producer");
        producer.setNamesrvAddr(cluster.namesrvAddr());
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
    @Order(7)
    void nothingOfTheBadRequestsWasStored() throws Exception {
        cluster.stopBroker();
        DropInIT.Scan scan = DropInIT.scan(cluster.commitLogDir(), BAD_BODY.getBytes(StandardCharsets.UTF_8));
        assertEquals(stored.get(), scan.messages, "only the well-formed messages are in the CommitLog");
        assertEquals(0, scan.matches, "no bad request body in the CommitLog");
    }

    private static RemotingCommand send(HashMap<String, String> ext, String body) throws Exception {
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
