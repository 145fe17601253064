package dev.rmqpatch.bench.broker;

import dev.rmqpatch.cluster.ManagedProcess;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;

/**
 * Garbage-collection totals of a local JVM from one long-running {@code jstat -gc PID 500}. jstat reads the target's
 * hsperfdata file, so it neither attaches to nor pauses the broker, and it is started with the broker, so its own
 * start-up CPU falls outside the measurement window. A reading is at most 500 ms old; GC totals are cumulative, so that
 * only blurs the window edges. Chosen over JMX because a stock 4.9.0 broker opens no JMX port.
 */
public final class GcMonitor implements AutoCloseable {
    private final ManagedProcess jstat;

    private GcMonitor(ManagedProcess jstat) {
        this.jstat = jstat;
    }

    /**
     * Starts watching with the jstat of {@code javaHome}, the JDK the target runs (null: the harness's own, which the
     * target then shares); returns null (GC figures unavailable) when that JDK has no jstat.
     */
    public static GcMonitor start(long pid, Path javaHome, Path output) throws IOException {
        Path binary = (javaHome != null ? javaHome : Path.of(System.getProperty("java.home"))).resolve("bin/jstat");
        if (!Files.isExecutable(binary)) {
            return null;
        }
        List<String> command = List.of(binary.toString(), "-J-Xmx32m", "-J-XX:TieredStopAtLevel=1", "-gc", Long.toString(pid), "500");
        return new GcMonitor(ManagedProcess.start("jstat-" + pid, command, Map.of(), null, output));
    }

    /** {pauseMillis, collections} as of the latest line, or null when there is none (yet). */
    public double[] latest() {
        try {
            List<String> lines = Files.readAllLines(jstat.output());
            if (lines.size() < 2) {
                return null;
            }
            // The newest line may still be half written; the one before it is complete.
            String header = lines.get(0);
            String last = lines.get(lines.size() - 1);
            String previous = lines.get(lines.size() - 2);
            double[] parsed = parse(header, last);
            return parsed != null ? parsed : (previous.equals(header) ? null : parse(header, previous));
        } catch (IOException | RuntimeException e) {
            return null;
        }
    }

    static double[] parse(String header, String line) {
        String[] names = header.trim().split("\\s+");
        String[] values = line.trim().split("\\s+");
        if (values.length != names.length) {
            return null;
        }
        double gct = -1;
        double count = 0;
        try {
            for (int i = 0; i < names.length; i++) {
                switch (names[i]) {
                    case "GCT":
                        gct = Double.parseDouble(values[i]);
                        break;
                    case "YGC":
                    case "FGC":
                    case "CGC":
                        if (!values[i].equals("-")) {
                            count += Double.parseDouble(values[i]);
                        }
                        break;
                    default:
                        break;
                }
            }
        } catch (NumberFormatException e) {
            return null;
        }
        return gct < 0 ? null : new double[] {gct * 1000.0, count};
    }

    @Override
    public void close() {
        jstat.stop(Duration.ofSeconds(2));
    }
}
