package dev.rmqpatch.bench.coordinator;

import dev.rmqpatch.bench.agent.AgentMain;
import dev.rmqpatch.bench.auth.AgentToken;
import dev.rmqpatch.cluster.ChildProcesses;
import dev.rmqpatch.cluster.ManagedProcess;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;

/**
 * Starts N agent processes on this machine, each in its own JVM, in parallel. They share one token generated for the
 * run, passed as a 0600 file in a private temporary folder that is deleted as soon as they have read it: local agents
 * go through the same authenticated path as agents on other hosts.
 */
public final class LocalAgents {
    /** Modest fixed heap: enough for 32 sync threads and their histograms, equal for every run. */
    public static final List<String> DEFAULT_JVM_OPTIONS = List.of("-Xms512m", "-Xmx512m", "-XX:+UseG1GC");

    private LocalAgents() {
    }

    public static List<AgentClient> launch(int count, Path dir, List<String> jvmOptions) throws IOException {
        return launch(count, 1, dir, HelperJdk.harness(), jvmOptions, List.of());
    }

    /**
     * {@code count} agents named agent-{@code first}, agent-{@code first + 1} ..., their output under {@code dir}, on
     * {@code jdk}, with {@code classPathFirst} before the harness's class path (a client comparison's patched RocketMQ jars).
     */
    public static List<AgentClient> launch(int count, int first, Path dir, HelperJdk jdk, List<String> jvmOptions,
                                           List<Path> classPathFirst) throws IOException {
        long self = ProcessHandle.current().pid();
        AgentToken token = AgentToken.generate();
        // createTempDirectory makes an owner-only folder on POSIX file systems; the file inside is 0600 as well.
        Path secrets = Files.createTempDirectory("rmqpatch-agents-");
        Path tokenFile = secrets.resolve("agent.token");
        token.writeNew(tokenFile);
        try {
            return launch(count, first, dir, jdk, jvmOptions, classPathFirst, self, token, tokenFile);
        } finally {
            // Each agent read the file before it printed its ready line; nothing needs it on disk after that.
            Files.deleteIfExists(tokenFile);
            Files.deleteIfExists(secrets);
        }
    }

    private static List<AgentClient> launch(int count, int first, Path dir, HelperJdk jdk, List<String> jvmOptions, List<Path> classPathFirst,
                                            long self, AgentToken token, Path tokenFile) throws IOException {
        List<CompletableFuture<AgentClient>> starting = new ArrayList<>();
        for (int i = first; i < first + count; i++) {
            String name = "agent-" + i;
            starting.add(CompletableFuture.supplyAsync(() -> {
                try {
                    // The agent's own entry point (class-file version 52), not the harness's: it runs on JDK 8 too.
                    List<String> command = LocalJvm.command(jdk, jvmOptions, classPathFirst, AgentMain.class.getName(),
                        List.of("--name", name, "--port", "0", "--bind", "127.0.0.1", "--token-file", tokenFile.toString(),
                            "--log-dir", dir.resolve(name).toAbsolutePath().toString(), "--parent-pid", Long.toString(self)));
                    LocalJvm.Started started = LocalJvm.launch(name, command, dir.resolve(name + ".out"), AgentMain.READY_PREFIX,
                        Duration.ofSeconds(60));
                    return new AgentClient(name, "127.0.0.1:" + started.port, token, started.process);
                } catch (IOException e) {
                    throw new CompletionException(new IOException("agent " + name + " did not start: " + e.getMessage(), e));
                }
            }));
        }
        List<AgentClient> agents = new ArrayList<>();
        IOException failure = null;
        for (CompletableFuture<AgentClient> f : starting) {
            try {
                agents.add(f.join());
            } catch (CompletionException e) {
                if (failure == null) {
                    failure = e.getCause() instanceof IOException ? (IOException) e.getCause() : new IOException(e.getCause());
                }
            }
        }
        if (failure != null) {
            stop(agents);
            throw failure;
        }
        return agents;
    }

    /** Asks local agents to exit, then makes sure their processes are gone. */
    public static void stop(List<AgentClient> agents) {
        List<ManagedProcess> processes = new ArrayList<>();
        for (AgentClient a : agents) {
            if (a.isLocal()) {
                try {
                    if (a.process().isAlive()) {
                        a.shutdown();
                    }
                } catch (AgentFailure ignored) {
                    // It will be signalled below.
                }
                processes.add(a.process());
            }
        }
        ChildProcesses.stopAll(processes, Duration.ofSeconds(10));
    }
}
