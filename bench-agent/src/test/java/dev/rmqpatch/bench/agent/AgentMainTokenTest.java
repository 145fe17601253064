package dev.rmqpatch.bench.agent;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.rmqpatch.bench.auth.AgentToken;
import dev.rmqpatch.bench.cli.Args;
import dev.rmqpatch.bench.cli.UsageException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class AgentMainTokenTest {
    @TempDir
    Path dir;

    private static Args flags(String... args) throws UsageException {
        return AgentMain.FLAGS.parse(args);
    }

    @Test
    void aNetworkAddressWithoutATokenIsRefused() {
        // Only meaningful where the test's environment does not name a token file.
        if (System.getenv(AgentToken.FILE_ENV) != null) {
            return;
        }
        for (String bind : new String[] {"0.0.0.0", "10.1.2.3", "::"}) {
            UsageException e = assertThrows(UsageException.class, () -> AgentMain.token(flags(), bind, dir), bind);
            assertTrue(e.getMessage().contains("without a token") && e.getMessage().contains("--token-file"), e.getMessage());
        }
    }

    @Test
    void loopbackWithoutATokenWritesAFreshOwnerOnlyTokenFile() throws Exception {
        if (System.getenv(AgentToken.FILE_ENV) != null) {
            return;
        }
        AgentToken t = AgentMain.token(flags(), "127.0.0.1", dir);
        Path file = dir.resolve("agent.token");
        assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(file)));
        assertTrue(t.authorizes("Bearer " + Files.readString(file).strip()));
    }

    @Test
    void aTokenFileIsReadAndChecked() throws Exception {
        AgentToken t = AgentToken.generate();
        Path file = dir.resolve("t");
        t.writeNew(file);
        assertTrue(AgentMain.token(flags("--token-file", file.toString()), "10.1.2.3", dir).authorizes(t.headerValue()));
        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-r--r--"));
        assertThrows(IOException.class, () -> AgentMain.token(flags("--token-file", file.toString()), "10.1.2.3", dir));
    }
}
