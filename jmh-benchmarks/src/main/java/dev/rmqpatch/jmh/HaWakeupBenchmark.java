package dev.rmqpatch.jmh;

import java.util.concurrent.TimeUnit;

import dev.rmqpatch.codec.ha.HaWakeups;
import org.apache.rocketmq.store.ha.WaitNotifyObject;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Threads;
import org.openjdk.jmh.annotations.Warmup;

/**
 * P16 (HA write-thread wake-up): the {@code wakeupAll} a SYNC_MASTER's put makes while the one HA connection's write
 * thread is busy sending (in its table, already notified), the common case under load. Two put threads call it at
 * once, as a master's send threads do. Stock: {@code WaitNotifyObject.wakeupAll()} (monitor, HashMap walk). Patched:
 * {@code HaWakeups.wakeupAll} (a volatile read). The put that finds the thread waiting costs a wake-up either way and
 * is not measured here.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 5, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 2, jvmArgsAppend = {"-Xms1g", "-Xmx1g"})
@Threads(2)
public class HaWakeupBenchmark {

    @State(Scope.Benchmark)
    public static class Ha {
        public WaitNotifyObject stock;
        public WaitNotifyObject patched;

        @Setup
        public void writeThreadInTheTable() throws InterruptedException {
            stock = new WaitNotifyObject();
            patched = new WaitNotifyObject();
            // A write thread that has waited once (so it is in both tables) and is now elsewhere, busy.
            Thread writer = new Thread(() -> {
                stock.allWaitForRunning(1);
                HaWakeups.allWaitForRunning(patched, 1);
            }, "ha-write");
            writer.start();
            writer.join();
            stock.wakeupAll();
            HaWakeups.wakeupAll(patched);
        }
    }

    @Benchmark
    public void stock(Ha ha) {
        ha.stock.wakeupAll();
    }

    @Benchmark
    public boolean patched(Ha ha) {
        return HaWakeups.wakeupAll(ha.patched);
    }
}
