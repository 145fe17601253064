package dev.rmqpatch.bench.coordinator;

import dev.rmqpatch.bench.auth.AgentToken;
import dev.rmqpatch.cluster.ManagedProcess;
import dev.rmqpatch.bench.protocol.AgentResult;
import dev.rmqpatch.bench.protocol.AgentStatus;
import dev.rmqpatch.bench.protocol.ErrorBody;
import dev.rmqpatch.bench.protocol.Json;
import dev.rmqpatch.bench.protocol.PrepareRequest;
import dev.rmqpatch.bench.protocol.ProgressReport;
import dev.rmqpatch.bench.protocol.StartRequest;
import dev.rmqpatch.bench.protocol.TargetRequest;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;

/**
 * The coordinator's handle on one agent, local or remote. Every call has a timeout, and every failure becomes an
 * {@link AgentFailure} that names the agent, its address and the cause: the agent's own error text, or, for a local
 * agent that died, its exit code and last output.
 */
public final class AgentClient {
    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(3))
        .version(HttpClient.Version.HTTP_1_1).build();

    private final String name;
    private final String address;
    private final URI base;
    private final AgentToken token;
    private final ManagedProcess process;

    /**
     * @param token   the agent's token, sent with every request
     * @param process the local agent process, or null for an agent on another host
     */
    public AgentClient(String name, String hostPort, AgentToken token, ManagedProcess process) {
        if (token == null) {
            throw new IllegalArgumentException("agent " + name + ": every agent call needs the token");
        }
        this.name = name;
        this.address = hostPort;
        this.base = URI.create("http://" + hostPort);
        this.token = token;
        this.process = process;
    }

    public String name() {
        return name;
    }

    public String address() {
        return address;
    }

    public ManagedProcess process() {
        return process;
    }

    public boolean isLocal() {
        return process != null;
    }

    public AgentStatus status() throws AgentFailure {
        return call("GET", "/status", null, AgentStatus.class, Duration.ofSeconds(5));
    }

    public AgentStatus prepare(PrepareRequest request) throws AgentFailure {
        return call("POST", "/prepare", request, AgentStatus.class, prepareTimeout(request));
    }

    /**
     * How long an agent may take to prepare: 60 s, plus 100 ms per push consumer it starts (each start sends the broker a
     * heartbeat listing every group of its client instance, so hundreds of groups cost more than linearly) and 10 ms per
     * topic whose route it waits for (OMB's 1,000-topic files: 2,000 consumers and 1,000 topics on each of two agents).
     */
    static Duration prepareTimeout(PrepareRequest request) {
        long consumers = 0;
        if (request.subscriptions != null) {
            for (PrepareRequest.Subscription s : request.subscriptions) {
                consumers += Math.max(0, s.consumers);
            }
        }
        long topics = 0;
        if (request.targets != null) {
            for (PrepareRequest.Target t : request.targets) {
                topics += t.topics == null ? 0 : t.topics.size();
            }
        } else if (request.topics != null) {
            topics = request.topics.size();
        }
        return Duration.ofSeconds(60).plusMillis(100 * consumers + 10 * topics);
    }

    public AgentStatus start(long delayMs) throws AgentFailure {
        StartRequest request = new StartRequest();
        request.delayMs = delayMs;
        return call("POST", "/start", request, AgentStatus.class, Duration.ofSeconds(10));
    }

    public AgentStatus measure() throws AgentFailure {
        return call("POST", "/measure", null, AgentStatus.class, Duration.ofSeconds(10));
    }

    public ProgressReport progress() throws AgentFailure {
        return call("GET", "/progress", null, ProgressReport.class, Duration.ofSeconds(10));
    }

    /** Moves the load to another prepared target at a new rate; the answer is the progress interval that ended. */
    public ProgressReport target(int target, double ratePerSecond) throws AgentFailure {
        return call("POST", "/target", new TargetRequest(target, ratePerSecond), ProgressReport.class, Duration.ofSeconds(10));
    }

    public AgentResult stop(Duration timeout) throws AgentFailure {
        return call("POST", "/stop", null, AgentResult.class, timeout);
    }

    /** Suspends or resumes the agent's consumers. */
    public AgentStatus pauseConsumers(boolean paused) throws AgentFailure {
        return call("POST", "/consumers", new dev.rmqpatch.bench.protocol.ConsumersRequest(paused), AgentStatus.class, Duration.ofSeconds(10));
    }

    /** Stops the consumers after the drain; their received sets can be large, hence the long timeout. */
    public dev.rmqpatch.bench.protocol.ConsumeResult stopConsumers() throws AgentFailure {
        return call("POST", "/consumers/stop", null, dev.rmqpatch.bench.protocol.ConsumeResult.class, Duration.ofSeconds(60));
    }

    public void reset() throws AgentFailure {
        call("POST", "/reset", null, AgentStatus.class, Duration.ofSeconds(20));
    }

    public void shutdown() throws AgentFailure {
        call("POST", "/shutdown", null, AgentStatus.class, Duration.ofSeconds(10));
    }

    private <T> T call(String method, String path, Object body, Class<T> type, Duration timeout) throws AgentFailure {
        HttpRequest.Builder request = HttpRequest.newBuilder(base.resolve(path)).timeout(timeout)
            .header("Content-Type", "application/json").header("Authorization", token.headerValue());
        String json = body == null ? "{}" : Json.GSON.toJson(body);
        request.method(method, "GET".equals(method) ? HttpRequest.BodyPublishers.noBody()
            : HttpRequest.BodyPublishers.ofString(json, StandardCharsets.UTF_8));
        HttpResponse<String> response;
        try {
            response = HTTP.send(request.build(), HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw unreachable(path, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AgentFailure(name, name + ": interrupted while calling " + path, e);
        }
        if (response.statusCode() == 401) {
            throw new AgentFailure(name, name + " (" + address + ") refused the token for " + path
                + " (HTTP 401): the coordinator's --agent-token-file must hold the token the agent was started with", null);
        }
        if (response.statusCode() != 200) {
            String cause = "HTTP " + response.statusCode();
            try {
                ErrorBody error = Json.GSON.fromJson(response.body(), ErrorBody.class);
                if (error != null && error.error != null) {
                    cause = error.error;
                }
            } catch (RuntimeException ignored) {
                cause += ": " + abbreviate(response.body());
            }
            throw new AgentFailure(name, name + " (" + address + ") refused " + path + ": " + cause, null);
        }
        try {
            return Json.GSON.fromJson(response.body(), type);
        } catch (RuntimeException e) {
            throw new AgentFailure(name, name + " (" + address + ") sent an unreadable answer to " + path + ": "
                + abbreviate(response.body()), e);
        }
    }

    /** Describes why an agent did not answer; for a local agent its process state says more than the socket error. */
    AgentFailure unreachable(String path, Exception e) {
        if (process != null) {
            // A dying process may need a moment before its exit is visible.
            for (int i = 0; i < 20 && process.isAlive(); i++) {
                try {
                    Thread.sleep(50);
                } catch (InterruptedException ie) {
                    Thread.currentThread().interrupt();
                    break;
                }
            }
            if (!process.isAlive()) {
                return new AgentFailure(name, "agent " + process.describeState(), e);
            }
        }
        String what = e instanceof java.net.http.HttpTimeoutException ? "did not answer " + path + " in time"
            : "cannot be reached for " + path + ": " + e;
        return new AgentFailure(name, name + " (" + address + ") " + what, e);
    }

    /** A local agent that is gone, described; null while it runs or for remote agents. */
    public String deathNotice() {
        return process != null && !process.isAlive() ? "agent " + process.describeState() : null;
    }

    private static String abbreviate(String text) {
        if (text == null) {
            return "";
        }
        return text.length() <= 200 ? text : text.substring(0, 200) + "...";
    }
}
