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
        // The client attaches its file appender to the root logger only on its first message; until then Netty's
        // loggers (bridged into RocketMQ's logging) find no appender and warn on stderr. Log once, at INFO.
        org.apache.rocketmq.logging.inner.Logger.getRootLogger().setLevel(org.apache.rocketmq.logging.inner.Level.INFO);
        org.apache.rocketmq.client.log.ClientLogger.getLog().info("rmqpatch distributed-bench logging to " + logDir.toAbsolutePath());
        configured = true;
    }

    /** Configures with {@code rocketmq.client.logRoot} if set, else a folder under java.io.tmpdir. */
    public static void ensureConfigured() {
        String root = System.getProperty("rocketmq.client.logRoot");
        configure(Paths.get(root != null ? root : System.getProperty("java.io.tmpdir") + "/rmqpatch-bench-" + Jdk8.pid()));
    }
}
