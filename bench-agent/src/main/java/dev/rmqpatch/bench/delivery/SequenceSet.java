package dev.rmqpatch.bench.delivery;

import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.util.Base64;
import java.util.Map;
import java.util.TreeMap;
import java.util.zip.DeflaterOutputStream;
import java.util.zip.InflaterInputStream;

/**
 * A set of sequence numbers of one stream: a bitset in pages of 65,536 bits allocated as sequences arrive, so memory is
 * one bit per message sent (about 125 KB per million) and a sparse set costs only its pages. Thread-safe: senders'
 * callbacks and consumer threads add concurrently. Shipped between agent and coordinator deflated and base64 (the sets
 * are nearly all ones, so a million acknowledged sends are a few hundred bytes).
 */
public final class SequenceSet {
    private static final int PAGE_BITS = 16;
    private static final int WORDS_PER_PAGE = (1 << PAGE_BITS) / 64;

    private final TreeMap<Long, long[]> pages = new TreeMap<>();

    /** Adds {@code sequence}; false when it was already there (a duplicate). */
    public synchronized boolean add(long sequence) {
        if (sequence < 0) {
            throw new IllegalArgumentException("negative sequence " + sequence);
        }
        long[] page = pages.computeIfAbsent(sequence >>> PAGE_BITS, k -> new long[WORDS_PER_PAGE]);
        int bit = (int) (sequence & ((1 << PAGE_BITS) - 1));
        long mask = 1L << (bit & 63);
        long word = page[bit >>> 6];
        if ((word & mask) != 0) {
            return false;
        }
        page[bit >>> 6] = word | mask;
        return true;
    }

    public synchronized boolean contains(long sequence) {
        long[] page = pages.get(sequence >>> PAGE_BITS);
        if (page == null) {
            return false;
        }
        int bit = (int) (sequence & ((1 << PAGE_BITS) - 1));
        return (page[bit >>> 6] & (1L << (bit & 63))) != 0;
    }

    public synchronized long size() {
        long n = 0;
        for (long[] page : pages.values()) {
            for (long w : page) {
                n += Long.bitCount(w);
            }
        }
        return n;
    }

    /** Adds every member of {@code other}; returns how many were already here (overlap). */
    public synchronized long addAll(SequenceSet other) {
        long overlap = 0;
        for (Map.Entry<Long, long[]> e : other.snapshot().entrySet()) {
            long[] mine = pages.computeIfAbsent(e.getKey(), k -> new long[WORDS_PER_PAGE]);
            long[] theirs = e.getValue();
            for (int i = 0; i < WORDS_PER_PAGE; i++) {
                overlap += Long.bitCount(mine[i] & theirs[i]);
                mine[i] |= theirs[i];
            }
        }
        return overlap;
    }

    /** Members of this set that {@code other} lacks. */
    public synchronized long countNotIn(SequenceSet other) {
        Map<Long, long[]> theirs = other.snapshot();
        long n = 0;
        for (Map.Entry<Long, long[]> e : pages.entrySet()) {
            long[] t = theirs.get(e.getKey());
            for (int i = 0; i < WORDS_PER_PAGE; i++) {
                n += Long.bitCount(e.getValue()[i] & ~(t == null ? 0 : t[i]));
            }
        }
        return n;
    }

    /** The first few members of this set that {@code other} lacks, for a message naming them. */
    public synchronized java.util.List<Long> firstNotIn(SequenceSet other, int limit) {
        java.util.List<Long> out = new java.util.ArrayList<>();
        Map<Long, long[]> theirs = other.snapshot();
        for (Map.Entry<Long, long[]> e : pages.entrySet()) {
            long[] t = theirs.get(e.getKey());
            for (int i = 0; i < WORDS_PER_PAGE && out.size() < limit; i++) {
                long missing = e.getValue()[i] & ~(t == null ? 0 : t[i]);
                while (missing != 0 && out.size() < limit) {
                    int b = Long.numberOfTrailingZeros(missing);
                    out.add((e.getKey() << PAGE_BITS) + i * 64L + b);
                    missing &= missing - 1;
                }
            }
        }
        return out;
    }

    private synchronized Map<Long, long[]> snapshot() {
        Map<Long, long[]> copy = new TreeMap<>();
        pages.forEach((k, v) -> copy.put(k, v.clone()));
        return copy;
    }

    public synchronized String encode() {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (DataOutputStream out = new DataOutputStream(new DeflaterOutputStream(bytes))) {
            out.writeInt(pages.size());
            for (Map.Entry<Long, long[]> e : pages.entrySet()) {
                out.writeLong(e.getKey());
                for (long w : e.getValue()) {
                    out.writeLong(w);
                }
            }
        } catch (IOException e) {
            throw new IllegalStateException("cannot happen in memory", e);
        }
        return Base64.getEncoder().encodeToString(bytes.toByteArray());
    }

    public static SequenceSet decode(String text) {
        SequenceSet set = new SequenceSet();
        try (DataInputStream in = new DataInputStream(new InflaterInputStream(new java.io.ByteArrayInputStream(Base64.getDecoder().decode(text))))) {
            int n = in.readInt();
            if (n < 0) {
                throw new IllegalArgumentException("negative page count");
            }
            for (int p = 0; p < n; p++) {
                long key = in.readLong();
                long[] page = new long[WORDS_PER_PAGE];
                for (int i = 0; i < WORDS_PER_PAGE; i++) {
                    page[i] = in.readLong();
                }
                set.pages.put(key, page);
            }
        } catch (IOException e) {
            throw new IllegalArgumentException("not an encoded sequence set: " + e.getMessage(), e);
        }
        return set;
    }
}
