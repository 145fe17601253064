package dev.rmqpatch.bench.agent;

import com.google.gson.JsonParseException;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import dev.rmqpatch.bench.auth.AgentToken;
import dev.rmqpatch.bench.lang.Jdk8;
import dev.rmqpatch.bench.protocol.ErrorBody;
import dev.rmqpatch.bench.protocol.Json;
import dev.rmqpatch.bench.protocol.PrepareRequest;
import dev.rmqpatch.bench.protocol.StartRequest;
import dev.rmqpatch.bench.protocol.TargetRequest;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * The agent's HTTP/JSON face: {@code GET /status}, {@code POST /prepare}, {@code POST /start}, {@code POST /measure},
 * {@code GET /progress}, {@code POST /target}, {@code POST /stop}, {@code POST /consumers} (suspend or resume),
 * {@code POST /consumers/stop}, {@code POST /reset}, {@code POST /shutdown}. Every failure answers with a
 * JSON {@code {"error": "..."}} naming the cause.
 *
 * <p>Every request must carry the agent's token ({@code Authorization: Bearer <token>}); one without it or with another
 * gets 401 before its route or body is looked at (so a stranger learns nothing of the API) and is logged with the
 * caller's address.
 */
public final class AgentHttpServer implements AutoCloseable {
    private final Agent agent;
    private final HttpServer server;
    private final ExecutorService executor;
    private final Runnable onShutdown;
    private final AgentToken token;
    private final RefusalLog refusals;

    public AgentHttpServer(Agent agent, String bindAddress, int port, AgentToken token, Runnable onShutdown) throws IOException {
        this(agent, bindAddress, port, token, onShutdown, new RefusalLog(System.err));
    }

    AgentHttpServer(Agent agent, String bindAddress, int port, AgentToken token, Runnable onShutdown, RefusalLog refusals)
        throws IOException {
        if (token == null) {
            throw new IllegalArgumentException("an agent needs a token");
        }
        this.agent = agent;
        this.onShutdown = onShutdown;
        this.token = token;
        this.refusals = refusals;
        this.server = HttpServer.create(new InetSocketAddress(bindAddress, port), 16);
        this.executor = Executors.newFixedThreadPool(4, r -> {
            Thread t = new Thread(r, "agent-http");
            t.setDaemon(true);
            return t;
        });
        server.setExecutor(executor);
        server.createContext("/", this::handle);
        server.start();
    }

    public int port() {
        return server.getAddress().getPort();
    }

    private void handle(HttpExchange exchange) throws IOException {
        String route = exchange.getRequestMethod() + " " + exchange.getRequestURI().getPath();
        // For the refusal log: the raw path, so no percent-decoded control character reaches the log.
        String rawRoute = exchange.getRequestMethod() + " " + exchange.getRequestURI().getRawPath();
        String authorization = exchange.getRequestHeaders().getFirst("Authorization");
        if (!token.authorizes(authorization)) {
            refusals.refused(exchange.getRemoteAddress(), rawRoute, authorization == null ? "no token" : "wrong token");
            exchange.getResponseHeaders().set("WWW-Authenticate", "Bearer realm=\"rmqpatch-agent\"");
            respond(exchange, 401, new ErrorBody(authorization == null
                ? "this agent needs its token: Authorization: Bearer <token> (the coordinator's --agent-token-file)"
                : "wrong token"));
            return;
        }
        try {
            Object body;
            switch (route) {
                case "GET /status":
                    body = agent.status();
                    break;
                case "POST /prepare":
                    body = agent.prepare(read(exchange, PrepareRequest.class));
                    break;
                case "POST /start":
                    body = agent.start(read(exchange, StartRequest.class));
                    break;
                case "POST /measure":
                    body = agent.measure();
                    break;
                case "GET /progress":
                    body = agent.progress();
                    break;
                case "POST /target":
                    body = agent.target(read(exchange, TargetRequest.class));
                    break;
                case "POST /stop":
                    body = agent.stop();
                    break;
                case "POST /consumers":
                    body = agent.consumers(read(exchange, dev.rmqpatch.bench.protocol.ConsumersRequest.class));
                    break;
                case "POST /consumers/stop":
                    body = agent.stopConsumers();
                    break;
                case "POST /reset":
                    agent.reset();
                    body = agent.status();
                    break;
                case "POST /shutdown":
                    agent.reset();
                    body = agent.status();
                    respond(exchange, 200, body);
                    Thread stopper = new Thread(onShutdown, "agent-shutdown");
                    stopper.start();
                    return;
                default:
                    body = new ErrorBody("no such endpoint: " + route);
                    respond(exchange, 404, body);
                    return;
            }
            respond(exchange, 200, body);
        } catch (Agent.AgentException e) {
            if (e.status() == 403) {
                refusals.refused(exchange.getRemoteAddress(), rawRoute, e.getMessage());
            }
            respond(exchange, e.status(), new ErrorBody(e.getMessage()));
        } catch (JsonParseException | IllegalArgumentException e) {
            respond(exchange, 400, new ErrorBody("bad request to " + route + ": " + e.getMessage()));
        } catch (RuntimeException | Error e) {
            respond(exchange, 500, new ErrorBody(agent.name() + " failed on " + route + ": " + e));
        }
    }

    private static <T> T read(HttpExchange exchange, Class<T> type) throws IOException {
        try (InputStream in = exchange.getRequestBody()) {
            String text = new String(Jdk8.readAllBytes(in), StandardCharsets.UTF_8);
            T value = Json.GSON.fromJson(text, type);
            if (value == null) {
                throw new IllegalArgumentException("empty body, expected " + type.getSimpleName());
            }
            return value;
        }
    }

    private static void respond(HttpExchange exchange, int status, Object body) throws IOException {
        byte[] bytes = Json.GSON.toJson(body).getBytes(StandardCharsets.UTF_8);
        exchange.getResponseHeaders().set("Content-Type", "application/json");
        exchange.sendResponseHeaders(status, bytes.length);
        try (OutputStream out = exchange.getResponseBody()) {
            out.write(bytes);
        }
    }

    @Override
    public void close() {
        server.stop(0);
        executor.shutdownNow();
    }
}
