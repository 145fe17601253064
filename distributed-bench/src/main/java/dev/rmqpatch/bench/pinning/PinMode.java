package dev.rmqpatch.bench.pinning;

import java.util.Locale;

/**
 * --pin: measure both placements, pinned and unpinned, interleaved, each with its own interval (both); measure with and
 * without pinning and keep the tighter (auto); always pin (on); never pin (off).
 */
public enum PinMode {
    BOTH, AUTO, ON, OFF;

    public String label() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** @throws IllegalArgumentException naming the allowed values */
    public static PinMode parse(String text) {
        for (PinMode m : values()) {
            if (m.label().equals(text == null ? null : text.trim())) {
                return m;
            }
        }
        throw new IllegalArgumentException("--pin must be one of both, auto, on, off, not '" + text + "'");
    }
}
