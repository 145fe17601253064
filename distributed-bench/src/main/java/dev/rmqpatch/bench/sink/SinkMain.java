package dev.rmqpatch.bench.sink;

import dev.rmqpatch.bench.cli.Args;
import dev.rmqpatch.bench.cli.Flag;
import dev.rmqpatch.bench.cli.FlagSet;
import dev.rmqpatch.bench.cli.UsageException;
import java.nio.file.Path;
import java.util.concurrent.CountDownLatch;

/**
 * {@code sink}: runs a {@link RawSinkServer} (the ceiling) or a {@link SinkServer} (stock remoting, the remoting floor)
 * until killed; prints {@code SINK_READY port=<port> pid=<pid> server=<raw|remoting>}.
 */
public final class SinkMain {
    public static final String READY_PREFIX = "SINK_READY port=";

    static final Flag<String> SERVER = Flag.oneOf("--server", "raw: netty reading only code and opaque, answering with a pre-encoded "
        + "response; the harness ceiling. remoting: the stock NettyRemotingServer with a processor pool; its CPU per message is the remoting floor (what any broker on the "
        + "stock remoting layer pays)", "raw", "remoting").defaultingTo("raw");
    static final Flag<Integer> PORT = Flag.whole("--port", "P", 0, "port (0: any free port)").defaultingTo(0);
    static final Flag<String> HOST = Flag.text("--host", "H", "address to listen on (raw) and announce in routes; the remoting "
        + "server listens on every address, as the stock server does").defaultingTo("127.0.0.1");
    static final Flag<Integer> QUEUES = Flag.whole("--queues", "N", 1, "queues per topic unless a topic was created with another count")
        .defaultingTo(18);
    static final Flag<Integer> THREADS = Flag.whole("--threads", "N", 1, "raw: event-loop threads (default 1); remoting: request "
        + "processing threads (default 4, the tuned broker's send threads)");
    static final Flag<Path> LOG_DIR = Flag.path("--log-dir", "DIR", "remoting log folder").defaultingTo(null, "<tmp>/rmqpatch-sink-<pid>");
    private static final FlagSet FLAGS = new FlagSet("Usage: bench sink [options]", String.join("\n",
        "A no-op RocketMQ endpoint for measuring the harness itself: it acts as name server and broker on one",
        "port, routes every topic to itself and acknowledges every send at once, storing nothing. Point agents",
        "at it as their name server (bench run --sink starts one for you). Prints " + READY_PREFIX + "<port> pid=<pid>."))
        .section("Options:", SERVER, PORT, HOST, QUEUES, THREADS, LOG_DIR)
        .epilogue("-h, --help: this text.");

    private SinkMain() {
    }

    /** The command-line arguments of a local sink JVM ({@code bench sink ...}) of this kind. */
    public static java.util.List<String> arguments(String server, int queues, Path logDir) {
        return java.util.List.of("sink", "--server", server, "--port", "0", "--queues", Integer.toString(queues), "--log-dir",
            logDir.toString());
    }

    public static String helpText() {
        return FLAGS.help();
    }

    public static int run(String[] args) throws UsageException, InterruptedException, java.io.IOException {
        Args flags = FLAGS.parse(args);
        String server = flags.get(SERVER);
        long pid = ProcessHandle.current().pid();
        Path logDir = flags.has(LOG_DIR) ? flags.get(LOG_DIR) : Path.of(System.getProperty("java.io.tmpdir") + "/rmqpatch-sink-" + pid);
        java.nio.file.Files.createDirectories(logDir);
        dev.rmqpatch.bench.logging.ClientLogging.configure(logDir);
        String host = flags.get(HOST);
        int port = flags.get(PORT);
        int queues = flags.get(QUEUES);
        AutoCloseable sink;
        int boundPort;
        if (server.equals("raw")) {
            RawSinkServer raw = new RawSinkServer(host, port, queues, flags.has(THREADS) ? flags.get(THREADS) : 1, null);
            sink = raw;
            boundPort = raw.port();
        } else {
            SinkServer remoting = new SinkServer(host, port, queues, flags.has(THREADS) ? flags.get(THREADS) : 4);
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
