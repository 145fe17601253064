package dev.rmqpatch.codec.client;

import java.util.concurrent.atomic.AtomicInteger;

/**
 * P27. A producer gives every message a unique key ({@code UNIQ_KEY}, the "msgId" applications see) from
 * {@code MessageClientIDSetter.createUniqID}: the fixed hex prefix (address, pid, class loader hash), then 8 hex digits
 * of the milliseconds since the start of the current month and 4 of a counter. Stock 4.9.0 builds it per message with
 * a StringBuilder, a 6-byte ByteBuffer, {@code UtilAll.bytes2string}'s char[] and String, and the final String copy.
 * This writes the same characters as ASCII bytes into one byte[] and makes the String from it.
 * <p>
 * The state stays stock's: the patched method hands its private statics ({@code FIX_STRING}, {@code COUNTER},
 * {@code startTime}, {@code nextStartTime}) to {@link #createUniqID(String, AtomicInteger, long, long)}, which reads the
 * clock once. When the month has rolled over ({@code now >= nextStartTime}) it declines (returns null) without
 * touching the counter, and the stock body runs: stock moves the start time under its lock and makes that key.
 * Stock reads the clock a second time for the time part; here the one reading serves both, which only changes which
 * millisecond of the same call is written.
 */
public final class UniqueKeys {

    private static final byte[] HEX = {'0', '1', '2', '3', '4', '5', '6', '7', '8', '9', 'A', 'B', 'C', 'D', 'E', 'F'};

    /** Hex digits after the prefix: 4 bytes of time since the month's start, 2 of the counter. */
    static final int SUFFIX_LENGTH = 12;

    private UniqueKeys() {
    }

    /** The patched {@code createUniqID}'s first call: stock's key, or null to let the stock body roll the month over. */
    public static String createUniqID(String fixString, AtomicInteger counter, long startTime, long nextStartTime) {
        return createUniqID(fixString, counter, startTime, nextStartTime, System.currentTimeMillis());
    }

    /**
     * The key stock makes at {@code now} for this state, drawing one counter value; null, with the counter untouched,
     * when {@code now} has reached {@code nextStartTime}.
     */
    @SuppressWarnings("deprecation")
    public static String createUniqID(String fixString, AtomicInteger counter, long startTime, long nextStartTime,
                                      long now) {
        if (now >= nextStartTime) {
            return null;
        }
        // Stock: ByteBuffer.putInt((int) (now - startTime)), putShort((short) counter), each byte as two hex digits.
        int sinceStart = (int) (now - startTime);
        int count = counter.getAndIncrement();
        int n = fixString.length();
        byte[] key = new byte[n + SUFFIX_LENGTH];
        fixString.getBytes(0, n, key, 0);
        int end = n + 8;
        for (int i = end - 1; i >= n; i--) {
            key[i] = HEX[sinceStart & 0xF];
            sinceStart >>>= 4;
        }
        for (int i = end + 3; i >= end; i--) {
            key[i] = HEX[count & 0xF];
            count >>>= 4;
        }
        return ascii(key);
    }

    /**
     * The String of ASCII bytes, with one copy: on JDK 9+ the bytes become the String's Latin-1 array as they are (no
     * char[] to compress), on JDK 8 its char[]. The prefix is hex digits ({@code UtilAll.bytes2string}), so ASCII.
     */
    @SuppressWarnings("deprecation")
    private static String ascii(byte[] key) {
        return new String(key, 0, 0, key.length);
    }
}
