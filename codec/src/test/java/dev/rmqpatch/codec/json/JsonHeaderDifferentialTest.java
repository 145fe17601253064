package dev.rmqpatch.codec.json;

import static dev.rmqpatch.codec.json.JsonCommands.describe;
import static dev.rmqpatch.codec.json.JsonCommands.show;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.util.Random;

import dev.rmqpatch.codec.Seeds;
import dev.rmqpatch.codec.hook.RemotingCommandHooks;
import org.apache.rocketmq.remoting.protocol.RemotingCommand;
import org.apache.rocketmq.remoting.protocol.RemotingSerializable;
import org.junit.jupiter.api.Test;

/**
 * The hand-written JSON header reader and writer against stock 4.9.0 (fastjson 1.2.76) on generated headers,
 * 1,000,000 of them in all: wherever the reader returns a command it must be the command stock decodes, field for
 * field and ext field for ext field in iteration order, and stock must not have failed; wherever the writer returns
 * bytes they must be stock's. What the reader declines goes to fastjson, so it is stock's by construction; the
 * tests also check that it does not decline what real clients send.
 */
class JsonHeaderDifferentialTest {

    /** Commands as RocketMQ's Java code builds them: written by stock and by ours, then decoded by both. */
    private static final int JAVA_CLIENT_HEADERS = 350_000;
    /** The same content as a client in another language might write it. */
    private static final int STYLED_HEADERS = 350_000;
    /** Byte-level mutations of both kinds: garbage, truncations, invalid UTF-8. */
    private static final int MUTATED_HEADERS = 300_000;

    @Test
    void javaClientHeadersEncodeAndDecodeLikeStock() {
        long seed = Seeds.seed();
        Random r = new Random(seed);
        for (int i = 0; i < JAVA_CLIENT_HEADERS; i++) {
            String where = Seeds.replay(seed, i);
            RemotingCommand cmd = JsonCommands.randomCommand(r);
            byte[] stock = JsonCommands.stockJson(cmd);
            byte[] ours = JsonHeaderWriter.write(cmd);
            assertNotNull(ours, () -> where + ": the writer declined a command RocketMQ builds: " + describe(cmd));
            if (!java.util.Arrays.equals(stock, ours)) {
                assertEquals(show(stock), show(ours), where);
                assertArrayEquals(stock, ours, where);
            }
            assertArrayEquals(stock, RemotingCommandHooks.encodeJsonHeader(cmd), where + " [hook]");
            RemotingCommand decoded = checkDecode(stock, where);
            boolean specialKey = cmd.getExtFields() != null && cmd.getExtFields().entrySet().stream()
                .anyMatch(e -> e.getValue() != null && (e.getKey().startsWith("@") || e.getKey().startsWith("$")));
            if (decoded == null && !specialKey) {
                fail(where + ": the reader declined a header stock wrote: " + show(stock));
            }
        }
    }

    @Test
    void headersInOtherStylesDecodeLikeStock() {
        long seed = Seeds.seed();
        Random r = new Random(seed);
        int read = 0;
        for (int i = 0; i < STYLED_HEADERS; i++) {
            byte[] json = JsonCommands.styledJson(JsonCommands.randomCommand(r), r);
            if (checkDecode(json, Seeds.replay(seed, i)) != null) {
                read++;
            }
        }
        // Most of them use nothing the reader leaves to fastjson (special keys, smart-matched names, odd numbers).
        assertTrue(read > STYLED_HEADERS * 0.6, read + " of " + STYLED_HEADERS + " read by hand");
    }

    @Test
    void mutatedHeadersDecodeLikeStockOrAreLeftToFastjson() {
        long seed = Seeds.seed();
        Random r = new Random(seed);
        int read = 0;
        for (int i = 0; i < MUTATED_HEADERS; i++) {
            RemotingCommand cmd = JsonCommands.randomCommand(r);
            byte[] json = r.nextBoolean() ? JsonCommands.stockJson(cmd) : JsonCommands.styledJson(cmd, r);
            if (checkDecode(JsonCommands.mutate(json, r), Seeds.replay(seed, i)) != null) {
                read++;
            }
        }
        assertTrue(read > 0, "some mutations (inside strings, whitespace) still read by hand");
    }

    /**
     * Decodes with stock and with the reader; returns the reader's command (null when it declined). When the reader
     * reads a header, stock must read it too, to an indistinguishable command, and each must draw one request id.
     */
    static RemotingCommand checkDecode(byte[] json, String where) {
        int before = RemotingCommand.createNewRequestId();
        RemotingCommand ours = JsonHeaderReader.read(json);
        int after = RemotingCommand.createNewRequestId();
        if (ours == null) {
            assertEquals(before + 1, after, () -> where + ": a declined read drew a request id");
            return null;
        }
        assertEquals(before + 2, after, () -> where + ": one command, one request id");
        RemotingCommand stock;
        try {
            stock = RemotingSerializable.decode(json, RemotingCommand.class);
        } catch (Throwable t) {
            fail(where + ": stock fails with " + t + " where the reader gave " + describe(ours) + " for " + show(json));
            return null;
        }
        if (!JsonCommands.same(stock, ours)) {
            assertEquals(describe(stock), describe(ours), () -> where + ": " + show(json));
        }
        return ours;
    }

    /** The hook falls back to stock for whatever the reader declines: the results and exceptions are stock's. */
    static void checkHook(byte[] json, String where) {
        RemotingCommand stockCmd = null;
        String stock;
        try {
            stockCmd = RemotingSerializable.decode(json, RemotingCommand.class);
            stock = describe(stockCmd);
        } catch (Throwable t) {
            stock = t.getClass().getName() + ": " + t.getMessage();
        }
        RemotingCommand oursCmd = null;
        String ours;
        try {
            oursCmd = RemotingCommandHooks.decodeJsonHeader(json, RemotingCommand.class);
            ours = describe(oursCmd);
        } catch (Throwable t) {
            ours = t.getClass().getName() + ": " + t.getMessage();
        }
        if (stockCmd != null && oursCmd != null && oursCmd.getOpaque() == stockCmd.getOpaque() + 1) {
            // No opaque taken from the header: each command keeps the request id its constructor drew.
            stock = stock.replace("opaque=" + stockCmd.getOpaque() + ",", "opaque=<drawn>,");
            ours = ours.replace("opaque=" + oursCmd.getOpaque() + ",", "opaque=<drawn>,");
        }
        assertEquals(stock, ours, where + ": " + show(json));
    }
}
