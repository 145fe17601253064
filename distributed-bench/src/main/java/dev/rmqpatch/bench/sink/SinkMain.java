package dev.rmqpatch.bench.sink;

import dev.rmqpatch.bench.cli.Flags;
import dev.rmqpatch.bench.cli.UsageException;
import java.nio.file.Path;
import java.util.Set;
import java.util.concurrent.CountDownLatch;

/** {@code sink}: runs a {@link SinkServer} until killed; prints {@code SINK_READY port=<port> pid=<pid>}. */
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
        "  --port P       port (default 0: any free port)",
        "  --host H       address announced in routes (default 127.0.0.1)",
        "  --queues N     queues per topic unless a topic was created with another count (default 18)",
        "  --threads N    request processing threads (default 4, the tuned broker's send threads)",
        "  --log-dir DIR  remoting log folder (default <tmp>/rmqpatch-sink-<pid>)",
        "  -h, --help     this text");

    private SinkMain() {
    }

    public static String helpText() {
        return HELP;
    }

    public static int run(String[] args) throws UsageException, InterruptedException, java.io.IOException {
        Flags flags = Flags.parse(args, Set.of("--port", "--host", "--queues", "--threads", "--log-dir"), Set.of());
        long pid = ProcessHandle.current().pid();
        Path logDir = Path.of(flags.get("--log-dir", System.getProperty("java.io.tmpdir") + "/rmqpatch-sink-" + pid));
        java.nio.file.Files.createDirectories(logDir);
        dev.rmqpatch.bench.ClientLogging.configure(logDir);
        SinkServer sink = new SinkServer(flags.get("--host", "127.0.0.1"), flags.intValue("--port", 0, 0),
            flags.intValue("--queues", 18, 1), flags.intValue("--threads", 4, 1));
        CountDownLatch stop = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            sink.close();
            stop.countDown();
        }, "sink-shutdown"));
        System.out.println(READY_PREFIX + sink.port() + " pid=" + pid);
        System.out.flush();
        stop.await();
        return 0;
    }
}
