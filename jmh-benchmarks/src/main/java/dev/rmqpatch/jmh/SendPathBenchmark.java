package dev.rmqpatch.jmh;

import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import dev.rmqpatch.codec.hook.RemotingCommandHooks;
import dev.rmqpatch.codec.properties.MessageProperties;
import org.apache.rocketmq.common.message.MessageConst;
import org.apache.rocketmq.common.message.MessageDecoder;
import org.apache.rocketmq.common.protocol.header.SendMessageRequestHeader;
import org.apache.rocketmq.common.protocol.header.SendMessageRequestHeaderV2;
import org.apache.rocketmq.common.protocol.header.SendMessageResponseHeader;
import org.apache.rocketmq.remoting.exception.RemotingCommandException;
import org.apache.rocketmq.remoting.protocol.RemotingCommand;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Warmup;

/**
 * The whole per-message codec work of a normal (non-batch) SEND_MESSAGE_V2 on a 4.9.0 broker, stock against
 * patched (P1-P4): what the broker pays per message for headers and properties. Steps, in the broker's order
 * (AbstractSendMessageProcessor.parseRequestHeader, SendMessageProcessor.preSend / asyncSendMessage /
 * handlePutMessageResult, CommitLog.DefaultAppendMessageCallback.doAppend, NettyEncoder):
 *
 * <ol>
 *   <li>decode the V2 request header and convert it to V1 ({@code createSendMessageRequestHeaderV1});
 *       stock decodes by reflection, patched through the codec hook (P1);</li>
 *   <li>create the response with an empty {@code SendMessageResponseHeader} ({@code createResponseCommand}, same
 *       on both sides);</li>
 *   <li>parse the request's properties into the message's map and add CLUSTER (both sides; the parse is P2's
 *       codec in the patched broker);</li>
 *   <li>encode the map into the string stored with the message: stock {@code messageProperties2String} (WAIT kept,
 *       trailing separator), patched {@code encodeForStore} (P3: no WAIT, no trailing separator);</li>
 *   <li>read TRAN_MSG: stock parses the request's properties string a second time, patched reads the message's
 *       map (P3);</li>
 *   <li>the CommitLog turns the stored string into UTF-8 bytes (same code, the patched string is shorter);</li>
 *   <li>fill the response header and encode it into the ext fields ({@code makeCustomHeaderToNet}, which the
 *       encoder calls from {@code encodeHeader}): stock by reflection, patched through the codec hook (P4).</li>
 * </ol>
 * Not modelled, because it is identical on both sides and not codec work: topic and permission checks, the
 * JSON (fastjson) decode/encode of the whole remoting header, the CommitLog append itself, message hooks
 * (none by default).
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 5, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 2, jvmArgsAppend = {"-Xms1g", "-Xmx1g"})
public class SendPathBenchmark {

    @Benchmark
    public SendPathResult stock(Inputs in) throws RemotingCommandException {
        RemotingCommand request = in.request;
        // 1. parseRequestHeader: reflective decode of the V2 header, then V1.
        SendMessageRequestHeaderV2 v2 =
            (SendMessageRequestHeaderV2) request.decodeCommandCustomHeader(SendMessageRequestHeaderV2.class);
        SendMessageRequestHeader header = SendMessageRequestHeaderV2.createSendMessageRequestHeaderV1(v2);
        // 2. preSend: the response and its empty header.
        RemotingCommand response = RemotingCommand.createResponseCommand(SendMessageResponseHeader.class);
        SendMessageResponseHeader responseHeader = (SendMessageResponseHeader) response.readCustomHeader();
        // 3. asyncSendMessage: first parse, CLUSTER.
        Map<String, String> properties = MessageDecoder.string2messageProperties(header.getProperties());
        properties.put(MessageConst.PROPERTY_CLUSTER, Inputs.CLUSTER_NAME);
        // 4. the stored string, every key kept.
        String stored = MessageDecoder.messageProperties2String(properties);
        // 5. second parse of the same request string, only to read TRAN_MSG.
        Map<String, String> origProps = MessageDecoder.string2messageProperties(header.getProperties());
        String transFlag = origProps.get(MessageConst.PROPERTY_TRANSACTION_PREPARED);
        boolean transactional = transFlag != null && Boolean.parseBoolean(transFlag);
        // 6. CommitLog: the stored properties as bytes.
        byte[] storedBytes = stored.getBytes(StandardCharsets.UTF_8);
        // 7. handlePutMessageResult fills the response header; the encoder writes it into the ext fields.
        responseHeader.setMsgId(Inputs.MSG_ID);
        responseHeader.setQueueId(header.getQueueId());
        responseHeader.setQueueOffset(Inputs.QUEUE_OFFSET);
        response.makeCustomHeaderToNet();
        return new SendPathResult(header, properties, storedBytes, transactional, response.getExtFields());
    }

    @Benchmark
    public SendPathResult patched(Inputs in) throws RemotingCommandException {
        RemotingCommand request = in.request;
        // 1. parseRequestHeader: the patched decodeCommandCustomHeader returns the codec's result (P1), then V1.
        SendMessageRequestHeaderV2 v2 = (SendMessageRequestHeaderV2)
            RemotingCommandHooks.decodeCommandCustomHeader(request, SendMessageRequestHeaderV2.class);
        SendMessageRequestHeader header = SendMessageRequestHeaderV2.createSendMessageRequestHeaderV1(v2);
        // 2. preSend: unchanged.
        RemotingCommand response = RemotingCommand.createResponseCommand(SendMessageResponseHeader.class);
        SendMessageResponseHeader responseHeader = (SendMessageResponseHeader) response.readCustomHeader();
        // 3. the one parse (string2messageProperties delegates to the codec, P2), CLUSTER.
        Map<String, String> properties = MessageProperties.decode(header.getProperties());
        properties.put(MessageConst.PROPERTY_CLUSTER, Inputs.CLUSTER_NAME);
        // 4. the stored string without WAIT (P3).
        String stored = MessageProperties.encodeForStore(properties);
        // 5. TRAN_MSG read from the message's map instead of a second parse (P3).
        String transFlag = properties.get(MessageConst.PROPERTY_TRANSACTION_PREPARED);
        boolean transactional = transFlag != null && Boolean.parseBoolean(transFlag);
        // 6. CommitLog: unchanged code, shorter string.
        byte[] storedBytes = stored.getBytes(StandardCharsets.UTF_8);
        // 7. response header through the codec hook (P4).
        responseHeader.setMsgId(Inputs.MSG_ID);
        responseHeader.setQueueId(header.getQueueId());
        responseHeader.setQueueOffset(Inputs.QUEUE_OFFSET);
        RemotingCommandHooks.makeCustomHeaderToNet(response);
        return new SendPathResult(header, properties, storedBytes, transactional, response.getExtFields());
    }
}
