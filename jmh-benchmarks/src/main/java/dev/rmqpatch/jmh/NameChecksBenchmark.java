package dev.rmqpatch.jmh;

import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;

import dev.rmqpatch.codec.client.InstanceEndpoints;
import dev.rmqpatch.codec.names.ValidNames;
import org.apache.rocketmq.common.utils.NameServerAddressUtils;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * P34 (topic check) and P35 (namespace memo): the call each patch replaces, stock against what the rewritten method
 * calls instead. Topic: stock's {@code regularExpressionMatcher} body ({@code PATTERN.matcher(topic).matches()}, the
 * pattern compiled as {@code TopicValidator} and {@code Validators} compile it) against
 * {@code ValidNames.regularExpressionMatcher}; a 27-character topic of the allowed characters, which both check in
 * full. Namespace: stock's {@code NameServerAddressUtils.validateInstanceEndpoint} against
 * {@code InstanceEndpoints.validateInstanceEndpoint}, for the same name-server address every call, as a producer asks.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 5, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 2, jvmArgsAppend = {"-Xms1g", "-Xmx1g"})
public class NameChecksBenchmark {

    /** A producer's topic and name-server address. */
    @State(Scope.Benchmark)
    public static class Names {
        public final Pattern pattern = Pattern.compile(ValidNames.VALID_PATTERN);
        public String topic = "orders-eu_west-1%shard|0042";
        public String address = "10.0.0.11:9876;10.0.0.12:9876";
    }

    @Benchmark
    public boolean topicStock(Names n) {
        return n.pattern.matcher(n.topic).matches();
    }

    @Benchmark
    public boolean topicPatched(Names n) {
        return ValidNames.regularExpressionMatcher(n.topic, n.pattern);
    }

    @Benchmark
    public boolean namespaceStock(Names n) {
        return NameServerAddressUtils.validateInstanceEndpoint(n.address);
    }

    @Benchmark
    public boolean namespacePatched(Names n) {
        return InstanceEndpoints.validateInstanceEndpoint(n.address);
    }
}
