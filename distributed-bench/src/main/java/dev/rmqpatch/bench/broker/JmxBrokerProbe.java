package dev.rmqpatch.bench.broker;

import java.io.IOException;
import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import javax.management.MBeanServerConnection;
import javax.management.remote.JMXConnector;
import javax.management.remote.JMXConnectorFactory;
import javax.management.remote.JMXServiceURL;

/**
 * Process CPU time and GC totals of broker JVMs on other hosts, read over remote JMX (the brokers deployed by
 * deploy/lib open it). /proc and jstat only reach processes on this machine; JMX is what a JDK 8 broker offers to
 * anyone else without extra software. Every call is bounded by a timeout, and a broker that cannot be read only
 * leaves the figures empty with a warning naming it: a benchmark must not fail because of its instruments.
 */
public final class JmxBrokerProbe implements AutoCloseable {
    public static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(10);

    /** One JVM's cumulative totals at one instant. */
    public record Reading(long cpuNanos, long gcMillis, long gcCollections) {
    }

    /** Sums over all brokers; all null when any broker could not be read, since a partial sum per message would lie. */
    public record Totals(Long cpuNanos, Double gcMillis, Double gcCollections) {
        public static Totals of(Map<String, Reading> readings, List<String> targets) {
            if (targets.isEmpty() || !readings.keySet().containsAll(targets)) {
                return new Totals(null, null, null);
            }
            long cpu = 0;
            long gcMs = 0;
            long gcCount = 0;
            for (String t : targets) {
                Reading r = readings.get(t);
                cpu += r.cpuNanos();
                gcMs += r.gcMillis();
                gcCount += r.gcCollections();
            }
            return new Totals(cpu, (double) gcMs, (double) gcCount);
        }
    }

    private final List<String> targets;
    private final JmxAccess access;
    private final Duration timeout;
    private final Map<String, JMXConnector> connectors = new ConcurrentHashMap<>();
    private final Set<String> warnings = new LinkedHashSet<>();
    private final ExecutorService calls = Executors.newCachedThreadPool(r -> {
        Thread t = new Thread(r, "broker-jmx");
        t.setDaemon(true);
        return t;
    });

    /** @param targets HOST:PORT of each broker JVM's JMX port, as {@link #parseTargets} returns them */
    public JmxBrokerProbe(List<String> targets, Duration timeout) {
        this(targets, JmxAccess.anonymous(), timeout);
    }

    /**
     * @param targets HOST:PORT of each broker JVM's JMX port, as {@link #parseTargets} returns them
     * @param access  the read-only credentials (and TLS trust) deploy generated for the brokers
     */
    public JmxBrokerProbe(List<String> targets, JmxAccess access, Duration timeout) {
        if (targets.isEmpty()) {
            throw new IllegalArgumentException("no JMX target");
        }
        this.targets = List.copyOf(targets);
        this.access = access;
        this.timeout = timeout;
    }

    /** {@code HOST:PORT[,HOST:PORT...]} (an IPv6 host in brackets) into a list; throws naming the bad entry. */
    public static List<String> parseTargets(String flag) {
        List<String> out = new ArrayList<>();
        for (String raw : flag.split(",")) {
            String t = raw.trim();
            if (t.isEmpty()) {
                continue;
            }
            int colon = t.lastIndexOf(':');
            String host = colon > 0 ? t.substring(0, colon) : "";
            int port;
            try {
                port = colon > 0 ? Integer.parseInt(t.substring(colon + 1)) : -1;
            } catch (NumberFormatException e) {
                port = -1;
            }
            boolean bareV6 = host.contains(":") && !(host.startsWith("[") && host.endsWith("]"));
            if (host.isEmpty() || bareV6 || port < 1 || port > 65535) {
                throw new IllegalArgumentException("'" + t + "' is not HOST:PORT (an IPv6 address goes in brackets: [::1]:10914)");
            }
            if (!out.contains(t)) {
                out.add(t);
            }
        }
        if (out.isEmpty()) {
            throw new IllegalArgumentException("no HOST:PORT in '" + flag + "'");
        }
        return out;
    }

    static JMXServiceURL serviceUrl(String target) throws IOException {
        return new JMXServiceURL("service:jmx:rmi:///jndi/rmi://" + target + "/jmxrmi");
    }

    public List<String> targets() {
        return targets;
    }

    /**
     * Opens the connections ahead of the measurement, so the window's edges cost a read, not an RMI handshake.
     * Returns the targets that answered; the others get a warning and are retried at each {@link #sample}.
     */
    public List<String> connect() {
        Map<String, Reading> ok = readAll();
        return targets.stream().filter(ok::containsKey).toList();
    }

    /** Reads every broker at once and sums; a broker that does not answer within the timeout is left out and warned of. */
    public Totals sample() {
        return Totals.of(readAll(), targets);
    }

    /** Replaces the sample's broker CPU and GC figures by the JMX totals (null when a broker could not be read). */
    public void fill(BrokerSample s) {
        Totals t = sample();
        s.brokerCpuNanos = t.cpuNanos();
        s.gcPauseMillis = t.gcMillis();
        s.gcCollections = t.gcCollections();
    }

    /** Warnings so far, one per broker and reason, in the order they arose. */
    public synchronized List<String> warnings() {
        return new ArrayList<>(warnings);
    }

    private Map<String, Reading> readAll() {
        Map<String, Future<Reading>> pending = new LinkedHashMap<>();
        for (String t : targets) {
            pending.put(t, calls.submit(() -> read(t)));
        }
        long deadline = System.nanoTime() + timeout.toNanos();
        Map<String, Reading> readings = new LinkedHashMap<>();
        for (Map.Entry<String, Future<Reading>> e : pending.entrySet()) {
            String target = e.getKey();
            try {
                readings.put(target, e.getValue().get(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS));
            } catch (TimeoutException te) {
                e.getValue().cancel(true);
                forget(target);
                warn(target, "no answer within " + timeout.toSeconds() + " s");
            } catch (ExecutionException ee) {
                warn(target, describe(ee.getCause()));
            } catch (InterruptedException ie) {
                Thread.currentThread().interrupt();
                warn(target, "interrupted");
            }
        }
        return readings;
    }

    /** One broker; a connection that broke since the last read (broker restarted, idle timeout) is reopened once. */
    private Reading read(String target) throws IOException {
        boolean fresh = !connectors.containsKey(target);
        try {
            return read(target, connection(target));
        } catch (IOException | RuntimeException e) {
            forget(target);
            if (fresh) {
                throw e;
            }
            return read(target, connection(target));
        }
    }

    static Reading read(String target, MBeanServerConnection c) throws IOException {
        com.sun.management.OperatingSystemMXBean os = ManagementFactory.newPlatformMXBeanProxy(c,
            ManagementFactory.OPERATING_SYSTEM_MXBEAN_NAME, com.sun.management.OperatingSystemMXBean.class);
        long cpu = os.getProcessCpuTime();
        if (cpu < 0) {
            throw new IOException("the JVM reports no process CPU time (ProcessCpuTime " + cpu + ")");
        }
        long gcMs = 0;
        long gcCount = 0;
        for (GarbageCollectorMXBean gc : ManagementFactory.getPlatformMXBeans(c, GarbageCollectorMXBean.class)) {
            // -1 means "undefined for this collector", not a negative amount.
            gcMs += Math.max(0, gc.getCollectionTime());
            gcCount += Math.max(0, gc.getCollectionCount());
        }
        return new Reading(cpu, gcMs, gcCount);
    }

    private MBeanServerConnection connection(String target) throws IOException {
        JMXConnector c = connectors.get(target);
        if (c == null) {
            c = JMXConnectorFactory.connect(serviceUrl(target), access.environment());
            JMXConnector raced = connectors.putIfAbsent(target, c);
            if (raced != null) {
                closeQuietly(c);
                c = raced;
            }
        }
        return c.getMBeanServerConnection();
    }

    private void forget(String target) {
        JMXConnector c = connectors.remove(target);
        if (c != null) {
            closeQuietly(c);
        }
    }

    private synchronized void warn(String target, String reason) {
        warnings.add("broker JMX " + target + " could not be read (" + reason + "): broker CPU and GC figures are left empty");
    }

    /** The innermost message: RMI wraps the reason (connection refused, no route) in several layers. */
    static String describe(Throwable t) {
        Throwable root = t;
        while (root.getCause() != null && root.getCause() != root) {
            root = root.getCause();
        }
        String m = root.getMessage();
        return root.getClass().getSimpleName() + (m == null || m.isBlank() ? "" : ": " + m.lines().findFirst().orElse(""));
    }

    private static void closeQuietly(JMXConnector c) {
        try {
            c.close();
        } catch (IOException | RuntimeException ignored) {
            // The broker may be gone already; nothing to release on our side then.
        }
    }

    @Override
    public void close() {
        connectors.keySet().forEach(this::forget);
        calls.shutdownNow();
    }
}
