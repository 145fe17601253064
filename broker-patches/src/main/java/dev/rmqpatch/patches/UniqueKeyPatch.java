package dev.rmqpatch.patches;

import java.util.Arrays;
import java.util.List;

import dev.rmqpatch.patches.transform.EntryHook;
import dev.rmqpatch.patches.transform.MethodEdit;
import dev.rmqpatch.patches.transform.RequireMembers;

/**
 * P27. Target: {@code MessageClientIDSetter.createUniqID()} in rocketmq-common, which a producer calls for every
 * message it sends (the UNIQ_KEY property, the "msgId" applications see). Replacement: an entry hook that hands the
 * class's private static state ({@code FIX_STRING}, {@code COUNTER}, {@code startTime}, {@code nextStartTime}) to
 * codec's {@code UniqueKeys.createUniqID}, which writes the same 32 hex digits into one byte[]; when the month has
 * rolled over it declines and the stock body moves the start time and makes that key. Both stock methods are checked
 * to still read and call what the codec mirrors.
 * Why: stock allocates a StringBuilder, a ByteBuffer, two arrays and two Strings per key; upstream cut the same
 * method from 2.41% to 0.42% of a producer's profile (#3590).
 * Tests: see {@link #tests()}; measured: see {@link #benchmark()}.
 */
final class UniqueKeyPatch implements Patch {

    @Override
    public String id() {
        return "P27";
    }

    @Override
    public String name() {
        return "unique-key";
    }

    @Override
    public String buys() {
        return "a producer's per-message unique key written into one byte[], without the StringBuilder, ByteBuffer and "
            + "hex String (upstream #3590)";
    }

    @Override
    public String effect() {
        return "MessageClientIDSetter.createUniqID, called for every message a producer sends, writes the same key "
            + "(the fixed prefix, then the milliseconds since the month's start and the counter, in hex) into one "
            + "byte[] (ASCII) and makes the String from it, from the class's own state; the month's roll-over is "
            + "stock's code. Stock reads the clock twice per key, the patched method once.";
    }

    @Override
    public String why() {
        return "Stock makes six objects per key (StringBuilder and its array, ByteBuffer and its array, the hex "
            + "String and its array) before the key itself; upstream measured the method at 2.41% of a producer's "
            + "profile and 0.42% after the same change (#3590). In this project's one profile of a stock producer "
            + "(one thread of synchronous 300-byte sends on loopback) it was 0.1% of the CPU samples: what the patch "
            + "saves there is allocation (UniqueKeyBenchmark: 264 to 168 B/op with a 44-digit IPv6 prefix), not CPU.";
    }

    @Override
    public String verification() {
        return "Keys keep their form (32 hex digits with an IPv4 prefix; MessageClientIDSetter.getIPStrFromID and "
            + "getNearlyTimeFromID read them back); a producer's allocation profile no longer shows "
            + "createUniqIDBuffer or UtilAll.bytes2string.";
    }

    @Override
    public String tests() {
        return "PatchedClassesIT; codec: UniqueKeysTest";
    }

    @Override
    public String benchmark() {
        return "UniqueKeyBenchmark";
    }

    @Override
    public ReleaseFit on(Release release) {
        return release.atLeast(Release.V4_9_3) ? ReleaseFit.upstream(
            "#3590 writes the unique key without the buffer: no createUniqIDBuffer "
            + "(witness only, not read)") : ReleaseFit.APPLIES;
    }

    @Override
    public List<MethodEdit> edits() {
        return Arrays.<MethodEdit>asList(
            new RequireMembers(Stock.CREATE_UNIQ_ID_BUFFER, Arrays.asList(Stock.CURRENT_TIME_MILLIS,
                Stock.UNIQ_ID_NEXT_START_TIME, Stock.SET_START_TIME, Stock.UNIQ_ID_START_TIME, Stock.BYTE_BUFFER_PUT_INT,
                Stock.UNIQ_ID_COUNTER, Stock.ATOMIC_INTEGER_GET_AND_INCREMENT, Stock.BYTE_BUFFER_PUT_SHORT)),
            new RequireMembers(Stock.CREATE_UNIQ_ID, Arrays.asList(Stock.UNIQ_ID_FIX_STRING, Stock.CREATE_UNIQ_ID_BUFFER,
                Stock.BYTES_TO_STRING)),
            EntryHook.withStaticFields(Stock.CREATE_UNIQ_ID, Arrays.asList(Stock.UNIQ_ID_FIX_STRING, Stock.UNIQ_ID_COUNTER,
                Stock.UNIQ_ID_START_TIME, Stock.UNIQ_ID_NEXT_START_TIME), Codec.CREATE_UNIQ_ID));
    }
}
