package dev.rmqpatch.bench.agent;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.rmqpatch.bench.auth.AgentToken;
import dev.rmqpatch.bench.protocol.Json;
import dev.rmqpatch.bench.protocol.PrepareRequest;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The agent's HTTP server with a real socket: every request needs the token; refusals are answered 401 and logged. */
class AgentHttpServerAuthTest {
    private final AgentToken token = AgentToken.generate();
    private final ByteArrayOutputStream log = new ByteArrayOutputStream();
    private final HttpClient http = HttpClient.newHttpClient();
    private AgentHttpServer server;

    @BeforeEach
    void start() throws Exception {
        server = new AgentHttpServer(new Agent("agent-t", NamesrvAllowlist.of(List.of("10.1.2.3:9876"))), "127.0.0.1", 0, token, () -> { },
            new RefusalLog(new PrintStream(log, true, StandardCharsets.UTF_8)));
    }

    @AfterEach
    void stop() {
        server.close();
    }

    private HttpResponse<String> call(String method, String path, String authorization, String body) throws Exception {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.port() + path))
            .method(method, body == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(body));
        if (authorization != null) {
            b.header("Authorization", authorization);
        }
        return http.send(b.build(), HttpResponse.BodyHandlers.ofString());
    }

    private String logged() {
        return log.toString(StandardCharsets.UTF_8);
    }

    @Test
    void withoutTheTokenEveryRouteIs401AndLogged() throws Exception {
        for (String[] r : List.of(new String[] {"GET", "/status"}, new String[] {"POST", "/prepare"}, new String[] {"POST", "/shutdown"},
            new String[] {"GET", "/no-such-endpoint"})) {
            HttpResponse<String> resp = call(r[0], r[1], null, r[0].equals("POST") ? "{}" : null);
            assertEquals(401, resp.statusCode(), r[1]);
            assertEquals("Bearer realm=\"rmqpatch-agent\"", resp.headers().firstValue("WWW-Authenticate").orElse(""));
            assertTrue(resp.body().contains("token"), resp.body());
        }
        assertEquals(4, logged().lines().filter(l -> l.contains("REFUSED") && l.contains("no token") && l.contains("127.0.0.1")).count(), logged());
    }

    @Test
    void aWrongTokenIs401AndLoggedWithoutWhatWasSent() throws Exception {
        String guess = AgentToken.generate().headerValue();
        HttpResponse<String> resp = call("GET", "/status", guess, null);
        assertEquals(401, resp.statusCode());
        assertTrue(logged().contains("REFUSED GET /status from 127.0.0.1:") && logged().contains("wrong token"), logged());
        assertFalse(logged().contains(guess.substring(7)), "the guess is not logged");
        assertFalse(logged().contains(token.headerValue().substring(7)), "the token is not logged");
    }

    @Test
    void theRightTokenWorks() throws Exception {
        HttpResponse<String> resp = call("GET", "/status", token.headerValue(), null);
        assertEquals(200, resp.statusCode(), resp.body());
        assertTrue(resp.body().contains("\"state\":\"IDLE\""), resp.body());
        assertEquals("", logged());
    }

    @Test
    void aPrepareForANameServerOutsideTheAllowlistIs403AndLogged() throws Exception {
        PrepareRequest p = new PrepareRequest();
        p.namesrv = "10.9.9.9:9876";
        p.topics = List.of("t");
        HttpResponse<String> resp = call("POST", "/prepare", token.headerValue(), Json.GSON.toJson(p));
        assertEquals(403, resp.statusCode(), resp.body());
        assertTrue(resp.body().contains("10.9.9.9:9876") && resp.body().contains("allowlist"), resp.body());
        assertTrue(logged().contains("REFUSED POST /prepare"), logged());
        assertEquals(200, call("GET", "/status", token.headerValue(), null).statusCode(), "the agent stays IDLE and usable");
    }

    @Test
    void refusalsAreLoggedAtMostTwentyAMinuteWithoutControlCharacters() throws Exception {
        // The limit is per clock minute: start well inside one, so the 25 calls (about a second) cannot straddle two
        // (once they did, 16 lines before the boundary and 9 after, and every call was logged).
        long intoMinute = System.currentTimeMillis() % 60_000;
        if (intoMinute > 45_000) {
            Thread.sleep(60_000 - intoMinute + 200);
        }
        for (int i = 0; i < 25; i++) {
            assertEquals(401, call("GET", "/status%0AFORGED", null, null).statusCode());
        }
        long lines = logged().lines().filter(l -> l.contains("REFUSED")).count();
        assertTrue(lines >= RefusalLog.PER_MINUTE && lines < 25, lines + " lines:\n" + logged());
        assertFalse(logged().lines().anyMatch(l -> l.startsWith("FORGED")), logged());
    }
}
