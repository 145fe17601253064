package dev.rmqpatch.bench.delivery;

import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;

/** Sequence sets by stream id: what one agent acknowledged, or what one subscription received on one agent. */
public final class StreamSets {
    private final Map<Integer, SequenceSet> streams = new ConcurrentHashMap<>();

    /** Adds one (stream, sequence); false when it was already there. */
    public boolean add(int stream, long sequence) {
        return streams.computeIfAbsent(stream, k -> new SequenceSet()).add(sequence);
    }

    public SequenceSet stream(int stream) {
        return streams.get(stream);
    }

    public Map<Integer, SequenceSet> streams() {
        return streams;
    }

    public long size() {
        long n = 0;
        for (SequenceSet s : streams.values()) {
            n += s.size();
        }
        return n;
    }

    /** Adds every member of {@code other}; returns how many were already here. */
    public long addAll(StreamSets other) {
        long overlap = 0;
        for (Map.Entry<Integer, SequenceSet> e : other.streams.entrySet()) {
            overlap += streams.computeIfAbsent(e.getKey(), k -> new SequenceSet()).addAll(e.getValue());
        }
        return overlap;
    }

    /** For the agent protocol: stream id (as text, a JSON object key) to encoded set. */
    public Map<String, String> encode() {
        Map<String, String> out = new TreeMap<>();
        streams.forEach((k, v) -> out.put(Integer.toString(k), v.encode()));
        return out;
    }

    public static StreamSets decode(Map<String, String> encoded) {
        StreamSets sets = new StreamSets();
        if (encoded != null) {
            encoded.forEach((k, v) -> {
                int stream;
                try {
                    stream = Integer.parseInt(k);
                } catch (NumberFormatException e) {
                    throw new IllegalArgumentException("stream id '" + k + "' is not a number");
                }
                sets.streams.put(stream, SequenceSet.decode(v));
            });
        }
        return sets;
    }
}
