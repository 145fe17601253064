package dev.rmqpatch.jmh;

import java.util.HashMap;
import java.util.concurrent.TimeUnit;

import dev.rmqpatch.codec.hook.RemotingCommandHooks;
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
 * P11 (pull header encode): the {@code PullMessageResponseHeader} of every pull response (next, min and max offset,
 * suggested broker) written into the response's ext fields, which start out null as on a fresh response. Stock:
 * {@code RemotingCommand.makeCustomHeaderToNet()} (reflection). Patched: the hook the patched method calls first.
 * Both return the filled ext-fields map.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 5, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 2, jvmArgsAppend = {"-Xms1g", "-Xmx1g"})
public class PullHeaderEncodeBenchmark {

    /** One response command per thread, its ext fields reset before every encode. */
    @State(Scope.Thread)
    public static class Response {
        public RemotingCommand command;

        @Setup
        public void setup() {
            command = PullInputs.pullResponse();
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
        RemotingCommandHooks.makePullHeaderToNet(cmd);
        return cmd.getExtFields();
    }
}
