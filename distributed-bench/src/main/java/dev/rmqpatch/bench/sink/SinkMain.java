package dev.rmqpatch.bench.sink;

import dev.rmqpatch.bench.cli.Flags;
import dev.rmqpatch.bench.cli.UsageException;
import java.nio.file.Path;
import java.util.Set;
import java.util.concurrent.CountDownLatch;

/**
 * {@code sink}: runs a {@link RawSinkServer} (the ceiling) or a {@link SinkServer} (stock remoting, the remoting floor)
 * until killed; prints {@code SINK_READY port=<port> pid=<pid> server=<raw|remoting>}.
 */
public final class SinkMain {
    public static final String READY_PREFIX = "SINK_READY port=";

    private static final String HELP = String.join("\n",
        "Usage: bench sink [options]",
        "",
        "A no-op RocketMQ endpoint for measuring the harness itself: it acts as name server and broker on one",
        "port, routes every topic to itself and acknowledges every send at once, storing nothing. Point agents",
        "at it as their name server (bench run --sink starts one for you). Prints " + READY_PREFIX + "<port> pid=<pid>.",
        "",
        "Options:",
        "  --server raw|remoting",
        "                 raw (default): netty reading only code and opaque, answering with a pre-encoded response;",
        "                 the harness ceiling. remoting: the stock NettyRemotingServer with a processor pool; its CPU",
        "                 per message is the remoting floor (what any broker on the stock remoting layer pays)",
        "  --port P       port (default 0: any free port)",
        "  --host H       address to listen on (raw) and announce in routes (default 127.0.0.1); the remoting",
        "                 server listens on every address, as the stock server does",
        "  --queues N     queues per topic unless a topic was created with another count (default 18)",
        "  --threads N    raw: event-loop threads (default 1); remoting: request processing threads (default 4,",
        "                 the tuned broker's send threads)",
        "  --log-dir DIR  remoting log folder (default <tmp>/rmqpatch-sink-<pid>)",
        "  -h, --help     this text");

    private SinkMain() {
    }

    /** The command-line arguments of a local sink JVM ({@code bench sink ...}) of this kind. */
    public static java.util.List<String> arguments(String server, int queues, Path logDir) {
        return java.util.List.of("sink", "--server", server, "--port", "0", "--queues", Integer.toString(queues), "--log-dir",
            logDir.toString());
    }

    public static String helpText() {
        return HELP;
    }

    public static int run(String[] args) throws UsageException, InterruptedException, java.io.IOException {
        Flags flags = Flags.parse(args, Set.of("--server", "--port", "--host", "--queues", "--threads", "--log-dir"), Set.of());
        String server = flags.get("--server", "raw");
        if (!server.equals("raw") && !server.equals("remoting")) {
            throw new UsageException("--server must be raw or remoting, not '" + server + "'");
        }
        long pid = ProcessHandle.current().pid();
        Path logDir = Path.of(flags.get("--log-dir", System.getProperty("java.io.tmpdir") + "/rmqpatch-sink-" + pid));
        java.nio.file.Files.createDirectories(logDir);
        dev.rmqpatch.bench.ClientLogging.configure(logDir);
        String host = flags.get("--host", "127.0.0.1");
        int port = flags.intValue("--port", 0, 0);
        int queues = flags.intValue("--queues", 18, 1);
        AutoCloseable sink;
        int boundPort;
        if (server.equals("raw")) {
            RawSinkServer raw = new RawSinkServer(host, port, queues, flags.intValue("--threads", 1, 1), null);
            sink = raw;
            boundPort = raw.port();
        } else {
            SinkServer remoting = new SinkServer(host, port, queues, flags.intValue("--threads", 4, 1));
            sink = remoting;
            boundPort = remoting.port();
        }
        CountDownLatch stop = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            try {
                sink.close();
            } catch (Exception e) {
                // Exiting anyway.
            }
            stop.countDown();
        }, "sink-shutdown"));
        System.out.println(READY_PREFIX + boundPort + " pid=" + pid + " server=" + server);
        System.out.flush();
        stop.await();
        return 0;
    }
}
