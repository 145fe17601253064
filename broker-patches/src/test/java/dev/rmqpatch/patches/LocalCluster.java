package dev.rmqpatch.patches;

import java.io.File;
import java.io.IOException;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;

/**
 * A name server and a broker started from a distribution's own bin/ scripts, on 127.0.0.1 and free ports, with
 * everything (store, logs, user.home) in a temp folder. {@link #close()} stops both, forcibly if need be, and
 * deletes the folder; a JVM shutdown hook does the same if a test run is interrupted.
 */
final class LocalCluster implements AutoCloseable {

    static final String FAST_DELAY_LEVELS = "1s 1s 1s 1s 1s 1s 1s 1s 1s 1s 1s 1s 1s 1s 1s 1s 1s 1s";

    final Path dist;
    final Path dir;
    final int namesrvPort;
    final int brokerPort;
    private final List<String> brokerConf;
    private String javaOpt = "";
    private String host = "127.0.0.1";
    private Process namesrv;
    private Process broker;
    private final Thread cleanup = new Thread(this::destroyAll);

    LocalCluster(Path dist, String confName, String... extraConf) throws IOException {
        this.dist = dist;
        if (!Files.isExecutable(dist.resolve("bin/mqbroker"))) {
            throw new IllegalStateException("no distribution at " + dist + "; run mvn package first");
        }
        this.dir = Files.createTempDirectory("rmqpatch-it-");
        this.namesrvPort = freePort();
        this.brokerPort = freeBrokerPort();
        this.brokerConf = new ArrayList<>(Files.readAllLines(dist.resolve("conf").resolve(confName)));
        brokerConf.add("listenPort=" + brokerPort);
        brokerConf.add("storePathRootDir=" + dir.resolve("store"));
        brokerConf.add("storePathCommitLog=" + dir.resolve("store/commitlog"));
        brokerConf.add("mapedFileSizeCommitLog=67108864");
        brokerConf.add("flushIntervalCommitLog=100");
        brokerConf.add("messageDelayLevel=" + FAST_DELAY_LEVELS);
        brokerConf.addAll(List.of(extraConf));
        Runtime.getRuntime().addShutdownHook(cleanup);
    }

    /** Extra JVM flags for the name server and broker started after this call, e.g. {@code -Drmqpatch.disable=S1}. */
    LocalCluster javaOpt(String flags) {
        this.javaOpt = flags;
        return this;
    }

    /**
     * The loopback address the broker advertises and clients use (default 127.0.0.1); with S4's
     * -Drmqpatch.bindAddress the servers listen on it alone.
     */
    LocalCluster host(String address) {
        this.host = address;
        return this;
    }

    /** The broker's config file: what stock persists run-time config updates into. */
    Path brokerConfFile() {
        return dir.resolve("broker.conf");
    }

    Path namesrvConfFile() {
        return dir.resolve("namesrv.properties");
    }

    /** The broker's own log (INFO, from conf/logback_broker.xml under user.home). */
    Path brokerLog() {
        return dir.resolve("logs/rocketmqlogs/broker.log");
    }

    String namesrvAddr() {
        return host + ":" + namesrvPort;
    }

    String brokerAddr() {
        return host + ":" + brokerPort;
    }

    Path commitLogDir() {
        return dir.resolve("store/commitlog");
    }

    LocalCluster start() throws IOException, InterruptedException {
        Files.write(dir.resolve("namesrv.properties"), List.of("listenPort=" + namesrvPort));
        namesrv = launch("mqnamesrv", "namesrv.out", "-c", dir.resolve("namesrv.properties").toString());
        awaitBoot(namesrv, dir.resolve("namesrv.out"), "name server");
        startBroker();
        return this;
    }

    void startBroker() throws IOException, InterruptedException {
        List<String> conf = new ArrayList<>(brokerConf);
        conf.add("namesrvAddr=" + namesrvAddr());
        conf.add("brokerIP1=" + host);
        Files.write(dir.resolve("broker.conf"), conf);
        broker = launch("mqbroker", "broker.out", "-c", dir.resolve("broker.conf").toString());
        awaitBoot(broker, dir.resolve("broker.out"), "broker");
    }

    /** Stops the broker with SIGTERM (a clean shutdown flushes the CommitLog) and waits for it. */
    void stopBroker() throws InterruptedException {
        stop(broker);
        broker = null;
    }

    /** SIGKILL, as a crash would: nothing in the broker runs after this. */
    void killBroker() throws InterruptedException {
        broker.destroyForcibly().waitFor();
        broker = null;
    }

    private Process launch(String script, String out, String... args) throws IOException {
        List<String> cmd = new ArrayList<>();
        cmd.add(dist.resolve("bin").resolve(script).toString());
        cmd.addAll(List.of(args));
        ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true)
            .redirectOutput(dir.resolve(out).toFile());
        pb.environment().put("JAVA_OPT", "-Xms384m -Xmx384m -XX:MaxDirectMemorySize=256m -Duser.home=" + dir + " " + javaOpt);
        pb.environment().remove("ROCKETMQ_HOME");
        return pb.start();
    }

    private static void awaitBoot(Process p, Path out, String what) throws IOException, InterruptedException {
        long deadline = System.nanoTime() + Duration.ofSeconds(90).toNanos();
        while (System.nanoTime() < deadline) {
            String text = Files.exists(out) ? Files.readString(out, StandardCharsets.UTF_8) : "";
            if (text.contains("boot success")) {
                return;
            }
            if (!p.isAlive()) {
                throw new IllegalStateException(what + " exited with " + p.exitValue() + ":\n" + text);
            }
            Thread.sleep(200);
        }
        p.destroyForcibly();
        throw new IllegalStateException(what + " did not boot within 90 s:\n" + Files.readString(out));
    }

    private static void stop(Process p) throws InterruptedException {
        if (p == null || !p.isAlive()) {
            return;
        }
        p.destroy();
        if (!p.waitFor(60, java.util.concurrent.TimeUnit.SECONDS)) {
            p.destroyForcibly().waitFor();
        }
    }

    private void destroyAll() {
        for (Process p : new Process[] {broker, namesrv}) {
            if (p != null && p.isAlive()) {
                p.destroyForcibly();
            }
        }
    }

    @Override
    public void close() throws Exception {
        try {
            stop(broker);
            stop(namesrv);
        } finally {
            destroyAll();
            try {
                Runtime.getRuntime().removeShutdownHook(cleanup);
            } catch (IllegalStateException shuttingDown) {
                // the hook runs anyway
            }
            try (Stream<Path> files = Files.walk(dir)) {
                files.sorted(Comparator.reverseOrder()).map(Path::toFile).forEach(File::delete);
            }
        }
    }

    static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
            return s.getLocalPort();
        }
    }

    /**
     * A port for a broker's listenPort whose neighbours are free too: the broker also binds listenPort-2 (the VIP
     * channel) and listenPort+1 (HA), and a collision there fails start-up with "Address already in use".
     */
    static int freeBrokerPort() throws IOException {
        for (int attempt = 0; attempt < 50; attempt++) {
            int p = freePort();
            if (p > 1026 && p < 65534 && bindable(p - 2) && bindable(p + 1)) {
                return p;
            }
        }
        throw new IOException("no free port with free neighbours (p-2, p+1) after 50 tries");
    }

    private static boolean bindable(int port) {
        try (ServerSocket s = new ServerSocket()) {
            s.bind(new java.net.InetSocketAddress(port));
            return true;
        } catch (IOException e) {
            return false;
        }
    }

    static Path dist(String variant) {
        String p = System.getProperty("rmqpatch.dist." + variant);
        if (p == null) {
            throw new IllegalStateException("system property rmqpatch.dist." + variant + " not set (run through mvn verify)");
        }
        return Path.of(p);
    }
}
