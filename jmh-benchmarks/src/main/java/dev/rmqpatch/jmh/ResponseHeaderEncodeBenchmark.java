package dev.rmqpatch.jmh;

import java.util.HashMap;
import java.util.concurrent.TimeUnit;

import dev.rmqpatch.codec.hook.RemotingCommandHooks;
import org.apache.rocketmq.common.protocol.header.SendMessageResponseHeader;
import org.apache.rocketmq.remoting.protocol.RemotingCommand;
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
 * P4 (response header encode): the {@code SendMessageResponseHeader} of every send (msgId, queueId, queueOffset)
 * written into the response's ext fields, which start out null as on a fresh response. Stock:
 * {@code RemotingCommand.makeCustomHeaderToNet()} (public in 4.9.0; reflection). Patched: the hook the patched
 * method calls first. Both return the filled ext-fields map. The properties input plays no part here, so this
 * benchmark has no input parameter.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 5, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 2, jvmArgsAppend = {"-Xms1g", "-Xmx1g"})
public class ResponseHeaderEncodeBenchmark {

    /** One response command per thread, its ext fields reset before every encode. */
    @State(Scope.Thread)
    public static class Response {
        public RemotingCommand command;

        @Setup
        public void setup() {
            command = newResponse();
        }

        /** A send response as {@code handlePutMessageResult} leaves it, before the encoder runs. */
        public static RemotingCommand newResponse() {
            RemotingCommand response = RemotingCommand.createResponseCommand(SendMessageResponseHeader.class);
            SendMessageResponseHeader header = (SendMessageResponseHeader) response.readCustomHeader();
            header.setMsgId(Inputs.MSG_ID);
            header.setQueueId(Inputs.QUEUE_ID);
            header.setQueueOffset(Inputs.QUEUE_OFFSET);
            return response;
        }
    }

    @Benchmark
    public HashMap<String, String> stock(Response r) {
        RemotingCommand cmd = r.command;
        cmd.setExtFields(null);
        cmd.makeCustomHeaderToNet();
        return cmd.getExtFields();
    }

    @Benchmark
    public HashMap<String, String> patched(Response r) {
        RemotingCommand cmd = r.command;
        cmd.setExtFields(null);
        RemotingCommandHooks.makeCustomHeaderToNet(cmd);
        return cmd.getExtFields();
    }
}
