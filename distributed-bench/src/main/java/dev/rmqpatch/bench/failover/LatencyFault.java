package dev.rmqpatch.bench.failover;

import java.util.List;

/** The stock producer's {@code setSendLatencyFaultEnable}: whether it avoids a broker that answered slowly or failed. */
public enum LatencyFault {
    ON, OFF;

    public boolean enabled() {
        return this == ON;
    }

    public String label() {
        return this == ON ? "on" : "off";
    }

    /** {@code on}, {@code off} or {@code both} (on, then off). */
    public static List<LatencyFault> parse(String text) {
        return switch (text) {
            case "on" -> List.of(ON);
            case "off" -> List.of(OFF);
            case "both" -> List.of(ON, OFF);
            default -> throw new IllegalArgumentException("--latency-fault must be on, off or both, not '" + text + "'");
        };
    }
}
