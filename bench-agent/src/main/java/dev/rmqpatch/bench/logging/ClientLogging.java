package dev.rmqpatch.bench.logging;

import dev.rmqpatch.bench.lang.Jdk8;
import java.nio.file.Path;
import java.nio.file.Paths;

/**
 * RocketMQ client logging at INFO to files, never to the console: the coordinator owns stdout, and console logging
 * costs CPU that the broker shares on small machines. Must run before RocketMQ classes log anything, because the
 * client reads these properties in static initialisers.
 */
public final class ClientLogging {
    private static boolean configured;

    private ClientLogging() {
    }

    public static synchronized void configure(Path logDir) {
        if (configured) {
            return;
        }
        System.setProperty("rocketmq.client.logUseSlf4j", "false");
        System.setProperty("rocketmq.client.logRoot", logDir.toAbsolutePath().toString());
        System.setProperty("rocketmq.client.logLevel", System.getProperty("rocketmq.client.logLevel", "INFO"));
        System.setProperty("rocketmq.client.logFileMaxSize", String.valueOf(256L * 1024 * 1024));
        // A 5.x client (--clients 5.3.3) logs through its own shaded logback (rmq.client.logback.xml): to this folder, at INFO,
        // never to the console unless mq.consoleAppender.enabled is set.
        System.setProperty("rocketmq.log.root", logDir.toAbsolutePath().toString());
        if (!classicClientLogging()) {
            configured = true;
            return;
        }
        // The client attaches its file appender to the root logger only on its first message; until then Netty's
        // loggers (bridged into RocketMQ's logging) find no appender and warn on stderr. Log once, at INFO.
        org.apache.rocketmq.logging.inner.Logger.getRootLogger().setLevel(org.apache.rocketmq.logging.inner.Level.INFO);
        org.apache.rocketmq.client.log.ClientLogger.getLog().info("rmqpatch distributed-bench logging to " + logDir.toAbsolutePath());
        configured = true;
    }

    /**
     * Whether the RocketMQ client on the class path logs through rocketmq-logging's ClientLogger (4.x); a 5.x client's jar has
     * no ClientLogger, and the harness's own 4.9.0 one, later on the class path, must not be loaded beside it.
     */
    private static boolean classicClientLogging() {
        String producer = "org/apache/rocketmq/client/producer/DefaultMQProducer.class";
        String logger = "org/apache/rocketmq/client/log/ClientLogger.class";
        java.net.URL p = ClientLogging.class.getClassLoader().getResource(producer);
        java.net.URL l = ClientLogging.class.getClassLoader().getResource(logger);
        return p != null && l != null && jarOf(p).equals(jarOf(l));
    }

    private static String jarOf(java.net.URL resource) {
        String s = resource.toString();
        int bang = s.indexOf("!/");
        return bang < 0 ? s.substring(0, s.indexOf("org/apache/rocketmq/")) : s.substring(0, bang);
    }

    /** Configures with {@code rocketmq.client.logRoot} if set, else a folder under java.io.tmpdir. */
    public static void ensureConfigured() {
        String root = System.getProperty("rocketmq.client.logRoot");
        configure(Paths.get(root != null ? root : System.getProperty("java.io.tmpdir") + "/rmqpatch-bench-" + Jdk8.pid()));
    }
}
