package dev.rmqpatch.patches;

import java.nio.charset.StandardCharsets;

/**
 * What the drivers that run in a lib/'s class loader ({@link DriverLoader}) have in common. JDK classes only: each
 * driver's loader defines its own copy of this class, as it does the driver's.
 */
final class DriverShared {

    private DriverShared() {
    }

    /** A UTF-8 body of at least {@code bytes} bytes (a small one: one line), different for every message. */
    static byte[] body(String kind, int seq, int bytes) {
        StringBuilder sb = new StringBuilder();
        for (int line = 0; line == 0 || sb.length() < bytes; line++) {
            sb.append(kind).append(' ').append(seq).append(" line ").append(line).append(" ✓ 消息 \uD83D\uDE80\n");
        }
        return sb.toString().getBytes(StandardCharsets.UTF_8);
    }
}
