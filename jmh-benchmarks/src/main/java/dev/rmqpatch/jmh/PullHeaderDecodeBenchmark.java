package dev.rmqpatch.jmh;

import java.util.concurrent.TimeUnit;

import dev.rmqpatch.codec.hook.RemotingCommandHooks;
import org.apache.rocketmq.common.protocol.header.PullMessageRequestHeader;
import org.apache.rocketmq.remoting.CommandCustomHeader;
import org.apache.rocketmq.remoting.exception.RemotingCommandException;
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
 * P10 (pull header decode): the PULL_MESSAGE request header of a 4.9.0 push consumer, from the request's ext fields
 * to a {@code PullMessageRequestHeader}, once per pull request. Stock: {@code RemotingCommand.decodeCommandCustomHeader}
 * (reflection). Patched: the hook the patched method calls first ({@code RemotingCommandHooks.decodePullCustomHeader}:
 * registry lookup, then the hand-written codec).
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 5, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 2, jvmArgsAppend = {"-Xms1g", "-Xmx1g"})
public class PullHeaderDecodeBenchmark {

    @State(Scope.Benchmark)
    public static class Request {
        public RemotingCommand command;

        @Setup
        public void setup() {
            command = PullInputs.pullRequest();
        }
    }

    @Benchmark
    public CommandCustomHeader stock(Request r) throws RemotingCommandException {
        return r.command.decodeCommandCustomHeader(PullMessageRequestHeader.class);
    }

    @Benchmark
    public CommandCustomHeader patched(Request r) throws RemotingCommandException {
        return RemotingCommandHooks.decodePullCustomHeader(r.command, PullMessageRequestHeader.class);
    }
}
