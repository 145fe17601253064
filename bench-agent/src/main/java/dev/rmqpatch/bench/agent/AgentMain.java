package dev.rmqpatch.bench.agent;

import dev.rmqpatch.bench.auth.AgentToken;
import dev.rmqpatch.bench.cli.Args;
import dev.rmqpatch.bench.cli.Flag;
import dev.rmqpatch.bench.cli.FlagSet;
import dev.rmqpatch.bench.cli.UsageException;
import dev.rmqpatch.bench.lang.Jdk8;
import java.io.IOException;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.Arrays;
import java.util.List;

/** {@code agent}: a load agent process. Prints {@code AGENT_READY port=<port> pid=<pid>} on stdout once it listens. */
public final class AgentMain {
    public static final String READY_PREFIX = "AGENT_READY port=";

    static final Flag<Integer> PORT = Flag.whole("--port", "P", 0, "port to listen on (0: any free port, printed on the ready line)")
        .defaultingTo(0);
    static final Flag<String> BIND = Flag.text("--bind", "ADDR", "address to listen on (the host's cluster address for a coordinator "
        + "on another host; needs a token file)").defaultingTo("127.0.0.1");
    static final Flag<Path> TOKEN_FILE = Flag.path("--token-file", "FILE", "the token").defaultingTo(null, "the file named by $"
        + AgentToken.FILE_ENV);
    static final Flag<String> ALLOW_NAMESRV = Flag.text("--allow-namesrv", "HOST:PORT[;HOST:PORT...]",
        "name servers a coordinator may point this agent at (repeatable; exact HOST:PORT text)").repeatable();
    static final Flag<String> NAME = Flag.text("--name", "NAME", "name used in reports and errors").defaultingTo(null, "agent-<pid>");
    static final Flag<Path> LOG_DIR = Flag.path("--log-dir", "DIR", "RocketMQ client log folder").defaultingTo(null,
        "<tmp>/rmqpatch-agent-<pid>");
    static final Flag<Long> PARENT_PID = Flag.pid("--parent-pid",
        "exit when this process exits (set by a coordinator that starts local agents)");
    static final FlagSet FLAGS = new FlagSet("Usage: bench agent [options]", String.join("\n",
        "Runs a load agent: an HTTP server that a coordinator (bench run / compare) prepares, starts, polls and",
        "stops. It drives stock RocketMQ producers; the coordinator merges its latency histograms with others'.",
        "Once listening it prints one line: " + READY_PREFIX + "<port> pid=<pid>.",
        "",
        "Every request must carry the token: Authorization: Bearer <token>; others get 401 and are logged. The token is",
        "read once at start from a file that only its owner may read (never from the command line, which ps shows).",
        "On a loopback address without a token file the agent writes a fresh token to <log-dir>/agent.token (0600)",
        "and prints its path; on any other address it refuses to start without one. It prepares producers only for",
        "the name servers allowed by --allow-namesrv (default: loopback addresses only)."))
        .section("Options:", PORT, BIND, TOKEN_FILE, ALLOW_NAMESRV, NAME, LOG_DIR, PARENT_PID)
        .epilogue("-h, --help: this text.");

    private AgentMain() {
    }

    public static String helpText() {
        return FLAGS.help();
    }

    /**
     * The agent's own entry point, which local agents are started with: it and everything it loads are class-file
     * version 52, so a client comparison can run its agents on JDK 8 (distributed-bench's Main needs JDK 17).
     */
    public static void main(String[] args) {
        System.exit(command(args));
    }

    /** {@code bench agent ARGS}: --help, or the agent until it is told to exit; 2 for a wrong flag, 1 for any other failure. */
    public static int command(String[] args) {
        List<String> given = Arrays.asList(args);
        if (given.contains("-h") || given.contains("--help")) {
            System.out.println(helpText());
            return 0;
        }
        try {
            return run(args);
        } catch (UsageException e) {
            System.err.println("bench agent: " + e.getMessage() + " (see --help)");
            return 2;
        } catch (Exception e) {
            System.err.println("bench agent: " + e.getMessage());
            return 1;
        }
    }

    public static int run(String[] args) throws UsageException, IOException, InterruptedException {
        Args flags = FLAGS.parse(args);
        long pid = Jdk8.pid();
        int port = flags.get(PORT);
        String bind = flags.get(BIND);
        String name = flags.has(NAME) ? flags.get(NAME) : "agent-" + pid;
        Path logDir = flags.has(LOG_DIR) ? flags.get(LOG_DIR) : Paths.get(System.getProperty("java.io.tmpdir") + "/rmqpatch-agent-" + pid);
        NamesrvAllowlist allowlist;
        try {
            allowlist = NamesrvAllowlist.of(flags.all(ALLOW_NAMESRV));
        } catch (IllegalArgumentException e) {
            throw new UsageException(e.getMessage());
        }
        Files.createDirectories(logDir);
        AgentToken token = token(flags, bind, logDir);
        dev.rmqpatch.bench.logging.ClientLogging.configure(logDir);

        Agent agent = new Agent(name, allowlist);
        Object done = new Object();
        AgentHttpServer server = new AgentHttpServer(agent, bind, port, token, () -> {
            synchronized (done) {
                done.notifyAll();
            }
        });
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            agent.reset();
            server.close();
        }, "agent-shutdown-hook"));

        Long parent = flags.get(PARENT_PID);
        if (parent != null) {
            ParentWatch.start(parent, why -> {
                System.err.println(name + ": " + why + "; stopping");
                System.exit(3);
            });
        }

        System.out.println(name + ": allowed name servers: " + allowlist.describe());
        for (String line : RocketMqClasses.lines(agent.rocketmqClasses())) {
            System.out.println(name + ": " + line);
        }
        System.out.println(READY_PREFIX + server.port() + " pid=" + pid);
        System.out.flush();
        synchronized (done) {
            done.wait();
        }
        server.close();
        return 0;
    }

    /**
     * The token from --token-file or the file the environment names; without either, a fresh one written to the log
     * folder, on loopback only: an agent on a network address without a token would obey anyone who reaches it.
     */
    static AgentToken token(Args flags, String bind, Path logDir) throws UsageException, IOException {
        String file = flags.has(TOKEN_FILE) ? flags.get(TOKEN_FILE).toString() : System.getenv(AgentToken.FILE_ENV);
        if (file != null && !Jdk8.isBlank(file)) {
            return AgentToken.read(Paths.get(file));
        }
        if (!isLoopback(bind)) {
            throw new UsageException("refusing to listen on " + bind + " without a token: give --token-file FILE (a file only you can read, "
                + "holding at least " + AgentToken.MIN_LENGTH + " random characters) or set " + AgentToken.FILE_ENV);
        }
        AgentToken fresh = AgentToken.generate();
        Path written = logDir.resolve("agent.token");
        Files.deleteIfExists(written);
        fresh.writeNew(written);
        System.out.println("no --token-file: wrote a new token to " + written.toAbsolutePath() + " (give it to the coordinator: --agent-token-file)");
        return fresh;
    }

    static boolean isLoopback(String bind) {
        try {
            return InetAddress.getByName(bind).isLoopbackAddress();
        } catch (UnknownHostException e) {
            return false;
        }
    }
}
