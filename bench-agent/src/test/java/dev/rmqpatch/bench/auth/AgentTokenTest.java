package dev.rmqpatch.bench.auth;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class AgentTokenTest {
    private static final String SECRET = "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef";

    @TempDir
    Path dir;

    @Test
    void theRightHeaderIsAuthorized() {
        assertTrue(AgentToken.of(SECRET).authorizes("Bearer " + SECRET));
        AgentToken generated = AgentToken.generate();
        assertTrue(generated.authorizes(generated.headerValue()));
    }

    @Test
    void aMissingHeaderIsRefused() {
        assertFalse(AgentToken.of(SECRET).authorizes(null));
        assertFalse(AgentToken.of(SECRET).authorizes(""));
    }

    @Test
    void aWrongHeaderIsRefused() {
        AgentToken token = AgentToken.of(SECRET);
        String almost = SECRET.substring(0, SECRET.length() - 1) + "0";
        for (String wrong : List.of("Bearer " + almost, "Bearer " + SECRET.substring(1), "Bearer " + SECRET + "0", "Bearer " + SECRET + " ",
            "bearer " + SECRET, "Basic " + SECRET, SECRET, "Bearer ", "Bearer " + SECRET.toUpperCase(), "Bearer " + AgentToken.generate())) {
            assertFalse(token.authorizes(wrong), wrong);
        }
        // Another token of the same length, differing only in its last character.
        assertFalse(AgentToken.of(almost).authorizes("Bearer " + SECRET));
    }

    /** The comparison is MessageDigest.isEqual (constant time in the content); what a unit test can check is that it is whole-value. */
    @Test
    void theComparisonLooksAtEveryByte() {
        AgentToken token = AgentToken.of(SECRET);
        for (int i = 0; i < SECRET.length(); i++) {
            char[] c = SECRET.toCharArray();
            c[i] = c[i] == 'f' ? 'e' : 'f';
            assertFalse(token.authorizes("Bearer " + new String(c)), "differs at " + i);
        }
    }

    @Test
    void generatedTokensAre64RandomHexDigits() {
        AgentToken a = AgentToken.generate();
        AgentToken b = AgentToken.generate();
        assertTrue(a.headerValue().matches("Bearer [0-9a-f]{64}"), "format");
        assertNotEquals(a.headerValue(), b.headerValue());
    }

    @Test
    void weakOrMalformedTokensAreRejected() {
        assertThrows(IllegalArgumentException.class, () -> AgentToken.of("short"));
        assertThrows(IllegalArgumentException.class, () -> AgentToken.of(SECRET.substring(0, 20) + " " + SECRET.substring(21)));
        assertThrows(IllegalArgumentException.class, () -> AgentToken.of(null));
        // A trailing newline, as `echo` writes it, is not part of the token.
        assertTrue(AgentToken.of(SECRET + "\n").authorizes("Bearer " + SECRET));
    }

    @Test
    void itNeverPrintsTheSecret() {
        assertFalse(AgentToken.of(SECRET).toString().contains(SECRET));
    }

    @Test
    void aWrittenTokenFileIsOwnerOnlyAndReadsBack() throws IOException {
        AgentToken token = AgentToken.generate();
        Path file = dir.resolve("agent.token");
        token.writeNew(file);
        assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(file)));
        assertTrue(AgentToken.read(file).authorizes(token.headerValue()));
    }

    @Test
    void anExistingFileIsNeverOverwritten() throws IOException {
        Path file = dir.resolve("agent.token");
        Files.writeString(file, "someone else's");
        assertThrows(FileAlreadyExistsException.class, () -> AgentToken.generate().writeNew(file));
    }

    @Test
    void aTokenFileOthersCanReadIsRefused() throws IOException {
        Path file = dir.resolve("agent.token");
        Files.writeString(file, SECRET);
        for (String mode : List.of("rw-r--r--", "rw-r-----", "rw-----w-")) {
            Files.setPosixFilePermissions(file, PosixFilePermissions.fromString(mode));
            IOException e = assertThrows(IOException.class, () -> AgentToken.read(file), mode);
            assertTrue(e.getMessage().contains("chmod 600"), e.getMessage());
        }
        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("r--------"));
        assertTrue(AgentToken.read(file).authorizes("Bearer " + SECRET));
    }

    @Test
    void aMissingOrShortTokenFileIsAnErrorNamingIt() throws IOException {
        Path missing = dir.resolve("none");
        assertTrue(assertThrows(IOException.class, () -> AgentToken.read(missing)).getMessage().contains(missing.toString()));
        Path shortOne = dir.resolve("short");
        SecretFiles.writeNew(shortOne, "abc\n");
        assertTrue(assertThrows(IOException.class, () -> AgentToken.read(shortOne)).getMessage().contains("at least 32"));
    }
}
