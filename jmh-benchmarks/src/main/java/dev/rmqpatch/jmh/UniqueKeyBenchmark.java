package dev.rmqpatch.jmh;

import java.lang.reflect.Field;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import dev.rmqpatch.codec.client.UniqueKeys;
import org.apache.rocketmq.common.message.MessageClientIDSetter;
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
 * P27 (unique key): one producer's key per message. Stock: {@code MessageClientIDSetter.createUniqID()} (StringBuilder,
 * ByteBuffer, {@code UtilAll.bytes2string}). Patched: what the rewritten method runs, {@code UniqueKeys.createUniqID}
 * given the class's own state (its prefix, counter and start times, read here once by reflection as the patched
 * method reads them per call with four static field loads). Both read the clock ({@code System.currentTimeMillis}),
 * stock twice, the codec once; both draw from the same counter.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 5, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 2, jvmArgsAppend = {"-Xms1g", "-Xmx1g"})
public class UniqueKeyBenchmark {

    /** Stock's private static state, as the patched method hands it to the codec. */
    @State(Scope.Benchmark)
    public static class Keys {
        public String fix;
        public AtomicInteger counter;
        public long startTime;
        public long nextStartTime;

        @Setup
        public void read() throws ReflectiveOperationException {
            MessageClientIDSetter.createUniqID();
            fix = (String) field("FIX_STRING").get(null);
            counter = (AtomicInteger) field("COUNTER").get(null);
            startTime = field("startTime").getLong(null);
            nextStartTime = field("nextStartTime").getLong(null);
        }

        private static Field field(String name) throws NoSuchFieldException {
            Field f = MessageClientIDSetter.class.getDeclaredField(name);
            f.setAccessible(true);
            return f;
        }
    }

    @Benchmark
    public String stock() {
        return MessageClientIDSetter.createUniqID();
    }

    @Benchmark
    public String patched(Keys k) {
        return UniqueKeys.createUniqID(k.fix, k.counter, k.startTime, k.nextStartTime);
    }
}
