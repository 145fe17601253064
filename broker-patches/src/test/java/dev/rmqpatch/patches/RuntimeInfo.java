package dev.rmqpatch.patches;

import java.util.Map;
import org.apache.rocketmq.common.protocol.RequestCode;
import org.apache.rocketmq.common.protocol.body.KVTable;
import org.apache.rocketmq.remoting.netty.NettyClientConfig;
import org.apache.rocketmq.remoting.netty.NettyRemotingClient;
import org.apache.rocketmq.remoting.protocol.RemotingCommand;
import org.apache.rocketmq.remoting.protocol.RemotingSerializable;

/** A broker's runtime info: the table GET_BROKER_RUNTIME_INFO answers, what {@code mqadmin brokerStatus} prints. */
final class RuntimeInfo {

    private RuntimeInfo() {
    }

    static Map<String, String> of(String brokerAddr) throws Exception {
        NettyRemotingClient client = new NettyRemotingClient(new NettyClientConfig());
        client.start();
        try {
            RemotingCommand response = client.invokeSync(brokerAddr,
                RemotingCommand.createRequestCommand(RequestCode.GET_BROKER_RUNTIME_INFO, null), 10_000);
            return RemotingSerializable.decode(response.getBody(), KVTable.class).getTable();
        } finally {
            client.shutdown();
        }
    }

    static long commitLogMaxOffset(String brokerAddr) throws Exception {
        return Long.parseLong(of(brokerAddr).get("commitLogMaxOffset"));
    }
}
