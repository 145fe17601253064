package dev.rmqpatch.jmh;

import java.util.Map;
import java.util.concurrent.TimeUnit;

import dev.rmqpatch.codec.properties.MessageProperties;
import org.apache.rocketmq.common.message.MessageDecoder;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Warmup;

/**
 * P2 (properties codec) and the store half of P3: the message-properties string, stock
 * {@code MessageDecoder} against {@code MessageProperties}. Each pair is {@code <op>Stock} / {@code <op>Patched}.
 * <ul>
 *   <li>{@code parse}: the producer's string to a map ({@code string2messageProperties}, twice per send in stock).</li>
 *   <li>{@code encode}: the broker's map to a string ({@code messageProperties2String}, patched by P2 everywhere).</li>
 *   <li>{@code storeEncode}: the string stored with the message in {@code asyncSendMessage}; stock encodes every key,
 *       P3 calls {@code encodeForStore}, which leaves out WAIT.</li>
 * </ul>
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 5, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 2, jvmArgsAppend = {"-Xms1g", "-Xmx1g"})
public class PropertiesBenchmark {

    @Benchmark
    public Map<String, String> parseStock(Inputs in) {
        return MessageDecoder.string2messageProperties(in.properties);
    }

    @Benchmark
    public Map<String, String> parsePatched(Inputs in) {
        return MessageProperties.decode(in.properties);
    }

    @Benchmark
    public String encodeStock(Inputs in) {
        return MessageDecoder.messageProperties2String(in.brokerProperties);
    }

    @Benchmark
    public String encodePatched(Inputs in) {
        return MessageProperties.encode(in.brokerProperties);
    }

    @Benchmark
    public String storeEncodeStock(Inputs in) {
        return MessageDecoder.messageProperties2String(in.brokerProperties);
    }

    @Benchmark
    public String storeEncodePatched(Inputs in) {
        return MessageProperties.encodeForStore(in.brokerProperties);
    }
}
