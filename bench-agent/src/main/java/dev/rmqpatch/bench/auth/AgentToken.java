package dev.rmqpatch.bench.auth;

import dev.rmqpatch.bench.lang.Jdk8;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.SecureRandom;

/**
 * The shared secret between a coordinator and its agents: every agent request carries
 * {@code Authorization: Bearer <token>}. It is read from a file (never from a command line, which {@code ps} shows to
 * every user of the host) and compared in constant time, so the time an agent takes to refuse a guess says nothing
 * about how much of it was right. {@link #toString()} never shows it.
 */
public final class AgentToken {
    /** The environment variable that names a token file, for agent and coordinator alike (never the token itself). */
    public static final String FILE_ENV = "RMQPATCH_AGENT_TOKEN_FILE";
    /** 32 hex digits = 128 bits; deploy and {@link #generate()} make 64. */
    public static final int MIN_LENGTH = 32;
    private static final String SCHEME = "Bearer ";
    private static final SecureRandom RANDOM = new SecureRandom();

    private final byte[] expectedHeader;
    private final String value;

    private AgentToken(String value) {
        this.value = value;
        this.expectedHeader = (SCHEME + value).getBytes(StandardCharsets.UTF_8);
    }

    /** A fresh random token: 32 bytes from {@link SecureRandom}, as 64 hex digits. */
    public static AgentToken generate() {
        byte[] bytes = new byte[32];
        RANDOM.nextBytes(bytes);
        StringBuilder hex = new StringBuilder(bytes.length * 2);
        for (byte b : bytes) {
            hex.append(Character.forDigit((b >> 4) & 0xf, 16)).append(Character.forDigit(b & 0xf, 16));
        }
        return new AgentToken(hex.toString());
    }

    /** Checks a token's text: printable ASCII without spaces (it travels in an HTTP header), at least 32 characters. */
    public static AgentToken of(String text) {
        String t = text == null ? "" : Jdk8.strip(text);
        if (t.length() < MIN_LENGTH) {
            throw new IllegalArgumentException("an agent token needs at least " + MIN_LENGTH + " characters, this one has " + t.length());
        }
        for (int i = 0; i < t.length(); i++) {
            char c = t.charAt(i);
            if (c <= ' ' || c > '~') {
                throw new IllegalArgumentException("an agent token is printable ASCII without spaces; character " + (i + 1) + " is not");
            }
        }
        return new AgentToken(t);
    }

    /** Reads a token file, refusing one that group or others can read. */
    public static AgentToken read(Path file) throws IOException {
        String text = SecretFiles.read(file, "agent token file");
        try {
            return of(text);
        } catch (IllegalArgumentException e) {
            throw new IOException("agent token file " + file + ": " + e.getMessage());
        }
    }

    /** Writes this token to a new 0600 file. */
    public void writeNew(Path file) throws IOException {
        SecretFiles.writeNew(file, value + "\n");
    }

    /**
     * Whether an {@code Authorization} header value carries this token. Constant time in the header's content:
     * {@link MessageDigest#isEqual} does not stop at the first differing byte (a different length is not secret).
     */
    public boolean authorizes(String authorizationHeader) {
        if (authorizationHeader == null) {
            return false;
        }
        return MessageDigest.isEqual(expectedHeader, authorizationHeader.getBytes(StandardCharsets.UTF_8));
    }

    /** The header value a client sends. */
    public String headerValue() {
        return SCHEME + value;
    }

    @Override
    public String toString() {
        return "AgentToken[redacted]";
    }
}
