package dev.rmqpatch.jmh;

import java.util.concurrent.TimeUnit;

import dev.rmqpatch.codec.hook.RemotingCommandHooks;
import org.apache.rocketmq.common.message.MessageConst;
import org.apache.rocketmq.remoting.protocol.RemotingCommand;
import org.apache.rocketmq.remoting.protocol.RemotingSerializable;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * P6 (JSON header encode): the JSON header of a send response, as {@code NettyEncoder} has it written: the response
 * that {@code SendMessageProcessor} builds (code SUCCESS, no remark), with the ext fields {@code preSend} adds
 * (MSG_REGION, TRACE_ON) and the response header's (msgId, queueId, queueOffset) already in its map. Stock: the call
 * that {@code RemotingCommand.headerEncode} makes for a JSON command, {@code RemotingSerializable.encode(this)}
 * (fastjson to a String, then its UTF-8 bytes). Patched: the hook the patched headerEncode calls instead. Both
 * return the header bytes. The properties input plays no part here, so this benchmark has no input parameter.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 5, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 2, jvmArgsAppend = {"-Xms1g", "-Xmx1g"})
public class JsonHeaderEncodeBenchmark {

    /** Region name the broker puts in MSG_REGION (BrokerConfig default). */
    static final String REGION = "DefaultRegion";

    /** One send response per thread, ready to be written; writing the header does not change it. */
    @State(Scope.Thread)
    public static class Response {
        public RemotingCommand command;

        @Setup
        public void setup() {
            command = newResponse();
        }

        /** A send response as the encoder gets it. */
        public static RemotingCommand newResponse() {
            RemotingCommand response = ResponseHeaderEncodeBenchmark.Response.newResponse();
            response.addExtField(MessageConst.PROPERTY_MSG_REGION, REGION);
            response.addExtField(MessageConst.PROPERTY_TRACE_SWITCH, "true");
            response.setCode(0);
            response.setRemark(null);
            response.setOpaque(1_048_576);
            response.makeCustomHeaderToNet();
            return response;
        }
    }

    @Benchmark
    public byte[] stock(Response r) {
        return RemotingSerializable.encode(r.command);
    }

    @Benchmark
    public byte[] patched(Response r) {
        return RemotingCommandHooks.encodeJsonHeader(r.command);
    }
}
