package dev.rmqpatch.jmh;

import java.util.concurrent.TimeUnit;

import dev.rmqpatch.codec.hook.RemotingCommandHooks;
import org.apache.rocketmq.remoting.protocol.RemotingCommand;
import org.apache.rocketmq.remoting.protocol.RemotingSerializable;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Warmup;

/**
 * P5 (JSON header decode): the JSON header of a SEND_MESSAGE_V2 frame as the 4.9.0 client writes it
 * ({@code Inputs.requestHeader}: about 500 bytes for {@code typical}, 3 KB for {@code large}, most of it the
 * properties value with its escaped separators), into a {@code RemotingCommand}. Stock: the call that
 * {@code RemotingCommand.headerDecode} makes for a JSON frame, {@code RemotingSerializable.decode(header,
 * RemotingCommand.class)} (a String of the header, then fastjson). Patched: the hook the patched headerDecode calls
 * instead. Both return the command with its ext fields.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 5, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 2, jvmArgsAppend = {"-Xms1g", "-Xmx1g"})
public class JsonHeaderDecodeBenchmark {

    @Benchmark
    public RemotingCommand stock(Inputs in) {
        return RemotingSerializable.decode(in.requestHeader, RemotingCommand.class);
    }

    @Benchmark
    public RemotingCommand patched(Inputs in) {
        return RemotingCommandHooks.decodeJsonHeader(in.requestHeader, RemotingCommand.class);
    }
}
