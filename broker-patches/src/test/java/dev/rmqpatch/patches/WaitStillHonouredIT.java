package dev.rmqpatch.patches;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.charset.StandardCharsets;

import org.apache.rocketmq.client.producer.DefaultMQProducer;
import org.apache.rocketmq.client.producer.SendStatus;
import org.apache.rocketmq.common.message.Message;
import org.junit.jupiter.api.Test;

/**
 * P3 leaves WAIT out of the CommitLog but must not hide it from the broker while it handles the send. A
 * SYNC_MASTER without a slave makes that visible: a send that asks to wait (WAIT=true, the client default) is
 * answered SLAVE_NOT_AVAILABLE, one that does not is SEND_OK. Neither stores WAIT.
 */
class WaitStillHonouredIT {

    @Test
    void syncMasterStillSeesWaitButDoesNotStoreIt() throws Exception {
        try (TestCluster cluster = new TestCluster(TestCluster.dist("patched"), "ms-sync/broker-a.conf").start()) {
            DefaultMQProducer producer = new DefaultMQProducer("wait-it-producer");
            producer.setNamesrvAddr(cluster.namesrvAddr());
            producer.setSendMsgTimeout(StockClientRoundTrip.SEND_TIMEOUT_MS);
            producer.start();
            try {
                Message waits = new Message("WaitIT", "t", "waits", "asks to wait".getBytes(StandardCharsets.UTF_8));
                assertEquals(SendStatus.SLAVE_NOT_AVAILABLE, producer.send(waits).getSendStatus(),
                    "WAIT=true reached the replication check");
                Message noWait = new Message("WaitIT", "t", "no-wait", "does not".getBytes(StandardCharsets.UTF_8));
                noWait.setWaitStoreMsgOK(false);
                assertEquals(SendStatus.SEND_OK, producer.send(noWait).getSendStatus(), "WAIT=false skips it");
            } finally {
                producer.shutdown();
            }
            cluster.stopBroker();
            DropInIT.Scan scan = DropInIT.scan(cluster.commitLogDir(), "WAIT\u0001".getBytes(StandardCharsets.UTF_8));
            assertEquals(2, scan.messages, "both messages are stored (SLAVE_NOT_AVAILABLE still stores on the master)");
            assertEquals(0, scan.matches, "no WAIT property in the CommitLog, whatever its value");
        }
    }
}
