package dev.rmqpatch.jmh;

import java.util.concurrent.TimeUnit;

import dev.rmqpatch.codec.hook.RemotingCommandHooks;
import org.apache.rocketmq.common.protocol.header.SendMessageRequestHeaderV2;
import org.apache.rocketmq.remoting.CommandCustomHeader;
import org.apache.rocketmq.remoting.exception.RemotingCommandException;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Warmup;

/**
 * P1 (header decode): the SEND_MESSAGE_V2 request header that every 4.x producer sends, from the request's ext
 * fields to a {@code SendMessageRequestHeaderV2}. Stock: {@code RemotingCommand.decodeCommandCustomHeader}
 * (reflection). Patched: the hook the patched {@code decodeCommandCustomHeader} calls first
 * ({@code RemotingCommandHooks}: registry lookup, then the hand-written codec).
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 5, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 2, jvmArgsAppend = {"-Xms1g", "-Xmx1g"})
public class SendHeaderDecodeBenchmark {

    @Benchmark
    public CommandCustomHeader stock(Inputs in) throws RemotingCommandException {
        return in.request.decodeCommandCustomHeader(SendMessageRequestHeaderV2.class);
    }

    @Benchmark
    public CommandCustomHeader patched(Inputs in) throws RemotingCommandException {
        return RemotingCommandHooks.decodeCommandCustomHeader(in.request, SendMessageRequestHeaderV2.class);
    }
}
