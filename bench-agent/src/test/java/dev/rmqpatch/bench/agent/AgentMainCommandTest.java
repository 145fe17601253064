package dev.rmqpatch.bench.agent;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.rmqpatch.bench.auth.AgentToken;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The agent's own entry point (what local agents, JDK 8 ones included, are started with): help, and clear refusals. */
class AgentMainCommandTest {
    @TempDir
    Path dir;

    private static final class Printed {
        final int exit;
        final String out;
        final String err;

        Printed(int exit, String out, String err) {
            this.exit = exit;
            this.out = out;
            this.err = err;
        }
    }

    private static Printed command(String... args) {
        PrintStream out = System.out;
        PrintStream err = System.err;
        ByteArrayOutputStream o = new ByteArrayOutputStream();
        ByteArrayOutputStream e = new ByteArrayOutputStream();
        System.setOut(new PrintStream(o, true, StandardCharsets.UTF_8));
        System.setErr(new PrintStream(e, true, StandardCharsets.UTF_8));
        try {
            int exit = AgentMain.command(args);
            return new Printed(exit, o.toString(StandardCharsets.UTF_8), e.toString(StandardCharsets.UTF_8));
        } finally {
            System.setOut(out);
            System.setErr(err);
        }
    }

    @Test
    void helpIsPrintedAndAWrongFlagIsAUsageError() {
        Printed help = command("--help");
        assertEquals(0, help.exit);
        assertTrue(help.out.startsWith("Usage: bench agent"), help.out);
        Printed wrong = command("--bogus");
        assertEquals(2, wrong.exit);
        assertEquals("bench agent: unknown option '--bogus' (see --help)", wrong.err.strip());
        Printed badPort = command("--port", "x");
        assertEquals(2, badPort.exit);
        assertTrue(badPort.err.startsWith("bench agent: ") && badPort.err.contains("--port"), badPort.err);
    }

    @Test
    void aNetworkAddressWithoutATokenIsRefusedBeforeAnythingListens() {
        if (System.getenv(AgentToken.FILE_ENV) != null) {
            return; // the environment names a token file: then the agent would start
        }
        Printed refused = command("--bind", "0.0.0.0", "--log-dir", dir.toString());
        assertEquals(2, refused.exit);
        assertTrue(refused.err.contains("refusing to listen on 0.0.0.0 without a token"), refused.err);
        assertTrue(!refused.out.contains(AgentMain.READY_PREFIX), refused.out);
    }
}
