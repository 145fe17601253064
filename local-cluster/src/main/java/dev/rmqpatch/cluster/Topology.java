package dev.rmqpatch.cluster;

import java.util.ArrayList;
import java.util.List;

/** Which brokers a {@link LocalCluster} starts next to its name server. */
public enum Topology {
    /** One master (the conf's own role, ASYNC_MASTER in the shipped confs). */
    SINGLE("single", "one name server + one master broker"),
    /** The 002 article's test setup: synchronous replication to one slave, asynchronous flush on both. */
    MS_SYNC("ms-sync", "one name server + a SYNC_MASTER and its SLAVE (same brokerName, ASYNC_FLUSH)"),
    /**
     * Two brokerNames, one master each, so a producer can move from one to the other (failover.sh, issue 43): the stall
     * agent, or any {@link LocalCluster.Spec#masterJvmOptions}, goes on the first only.
     */
    TWO_MASTERS("two-masters", "one name server + two ASYNC_MASTERs (" + LocalCluster.FIRST_MASTER + ", " + LocalCluster.SECOND_MASTER
        + "; ASYNC_FLUSH), each its own ports and store");

    private final String label;
    private final String description;

    Topology(String label, String description) {
        this.label = label;
        this.description = description;
    }

    public String label() {
        return label;
    }

    public String description() {
        return description;
    }

    public static List<String> labels() {
        List<String> all = new ArrayList<>();
        for (Topology t : values()) {
            all.add(t.label);
        }
        return all;
    }

    /** @throws IllegalArgumentException naming the allowed values */
    public static Topology parse(String label) {
        for (Topology t : values()) {
            if (t.label.equals(label == null ? null : label.trim())) {
                return t;
            }
        }
        throw new IllegalArgumentException("unknown topology '" + label + "': allowed values are " + String.join(", ", labels()));
    }

    @Override
    public String toString() {
        return label;
    }
}
