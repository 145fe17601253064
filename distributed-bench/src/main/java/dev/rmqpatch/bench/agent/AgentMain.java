package dev.rmqpatch.bench.agent;

import dev.rmqpatch.bench.cli.Flags;
import dev.rmqpatch.bench.cli.UsageException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;

/** {@code agent}: a load agent process. Prints {@code AGENT_READY port=<port> pid=<pid>} on stdout once it listens. */
public final class AgentMain {
    public static final String READY_PREFIX = "AGENT_READY port=";

    static final String HELP = String.join("\n",
        "Usage: bench agent [options]",
        "",
        "Runs a load agent: an HTTP server that a coordinator (bench run / compare) prepares, starts, polls and",
        "stops. It drives stock RocketMQ producers; the coordinator merges its latency histograms with others'.",
        "Once listening it prints one line: " + READY_PREFIX + "<port> pid=<pid>.",
        "",
        "Options:",
        "  --port P          port to listen on (default 0: any free port, printed on the ready line)",
        "  --bind ADDR       address to listen on (default 127.0.0.1; 0.0.0.0 for a coordinator on another host)",
        "  --name NAME       name used in reports and errors (default agent-<pid>)",
        "  --log-dir DIR     RocketMQ client log folder (default <tmp>/rmqpatch-agent-<pid>)",
        "  --parent-pid PID  exit when this process exits (set by a coordinator that starts local agents)",
        "  -h, --help        this text");

    private AgentMain() {
    }

    public static String helpText() {
        return HELP;
    }

    public static int run(String[] args) throws UsageException, IOException, InterruptedException {
        Flags flags = Flags.parse(args, Set.of("--port", "--bind", "--name", "--log-dir", "--parent-pid"), Set.of());
        long pid = ProcessHandle.current().pid();
        int port = flags.intValue("--port", 0, 0);
        String bind = flags.get("--bind", "127.0.0.1");
        String name = flags.get("--name", "agent-" + pid);
        Path logDir = Path.of(flags.get("--log-dir", System.getProperty("java.io.tmpdir") + "/rmqpatch-agent-" + pid));
        Files.createDirectories(logDir);
        dev.rmqpatch.bench.ClientLogging.configure(logDir);

        Agent agent = new Agent(name);
        Object done = new Object();
        AgentHttpServer server = new AgentHttpServer(agent, bind, port, () -> {
            synchronized (done) {
                done.notifyAll();
            }
        });
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            agent.reset();
            server.close();
        }, "agent-shutdown-hook"));

        String parent = flags.get("--parent-pid", null);
        if (parent != null) {
            ProcessHandle.of(Long.parseLong(parent)).ifPresentOrElse(
                h -> h.onExit().thenRun(() -> {
                    System.err.println(name + ": parent process " + parent + " exited; stopping");
                    System.exit(3);
                }),
                () -> {
                    System.err.println(name + ": parent process " + parent + " is not running; stopping");
                    System.exit(3);
                });
        }

        System.out.println(READY_PREFIX + server.port() + " pid=" + pid);
        System.out.flush();
        synchronized (done) {
            done.wait();
        }
        server.close();
        return 0;
    }
}
