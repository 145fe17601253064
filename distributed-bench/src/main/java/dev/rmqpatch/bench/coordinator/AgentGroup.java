package dev.rmqpatch.bench.coordinator;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

/**
 * The agents of one run, called in parallel: one slow or dead agent neither serialises the others nor hides their
 * answers. The first failure is thrown once all have answered, a dead local agent's in preference to a timeout, since
 * its exit code and output explain the others' errors.
 */
public final class AgentGroup implements AutoCloseable {
    private final List<AgentClient> agents;
    private final ExecutorService calls;

    public AgentGroup(List<AgentClient> agents) {
        if (agents.isEmpty()) {
            throw new IllegalArgumentException("a run needs at least one agent");
        }
        this.agents = List.copyOf(agents);
        this.calls = Executors.newCachedThreadPool(r -> {
            Thread t = new Thread(r, "coordinator-call");
            t.setDaemon(true);
            return t;
        });
    }

    /** A call on one agent. */
    public interface AgentCall<T> {
        T call(AgentClient agent) throws AgentFailure;
    }

    public List<AgentClient> agents() {
        return agents;
    }

    public int size() {
        return agents.size();
    }

    /** Calls every agent in parallel; results in agent order. */
    public <T> List<T> forAll(AgentCall<T> call) throws AgentFailure {
        List<CompletableFuture<T>> futures = new ArrayList<>();
        for (AgentClient a : agents) {
            futures.add(CompletableFuture.supplyAsync(() -> {
                try {
                    return call.call(a);
                } catch (AgentFailure e) {
                    throw new CompletionException(e);
                }
            }, calls));
        }
        List<T> results = new ArrayList<>();
        AgentFailure failure = null;
        for (CompletableFuture<T> f : futures) {
            try {
                results.add(f.join());
            } catch (CompletionException e) {
                AgentFailure af = e.getCause() instanceof AgentFailure ? (AgentFailure) e.getCause()
                    : new AgentFailure("?", "agent call failed: " + e.getCause(), e.getCause());
                if (failure == null || (af.getMessage().contains("exited with code") && !failure.getMessage().contains("exited with code"))) {
                    failure = af;
                }
            }
        }
        if (failure != null) {
            throw failure;
        }
        return results;
    }

    /** Resets agents left busy by a run whose coordinator gave up, so a new run starts clean. */
    public void resetBusy() throws AgentFailure {
        List<dev.rmqpatch.bench.protocol.AgentStatus> statuses = forAll(AgentClient::status);
        for (int i = 0; i < agents.size(); i++) {
            if (!"IDLE".equals(statuses.get(i).state)) {
                agents.get(i).reset();
            }
        }
    }

    /** After a failed run: back to IDLE where possible, within 30 s; the run's first error is what gets reported. */
    public void resetQuietly() {
        List<CompletableFuture<Void>> resets = new ArrayList<>();
        for (AgentClient a : agents) {
            resets.add(CompletableFuture.runAsync(() -> {
                try {
                    if (a.deathNotice() == null) {
                        a.reset();
                    }
                } catch (AgentFailure ignored) {
                    // The run already failed; the first error is what gets reported.
                }
            }, calls));
        }
        try {
            CompletableFuture.allOf(resets.toArray(new CompletableFuture[0])).get(30, TimeUnit.SECONDS);
        } catch (Exception ignored) {
            // Best effort.
        }
    }

    /** The first local agent found dead, described; null while all run. */
    public String deathNotice() {
        for (AgentClient a : agents) {
            String death = a.deathNotice();
            if (death != null) {
                return death;
            }
        }
        return null;
    }

    @Override
    public void close() {
        calls.shutdownNow();
    }
}
