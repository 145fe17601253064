package dev.rmqpatch.patches;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URLClassLoader;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import dev.rmqpatch.codec.switches.PatchSwitches;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * P20, differential: the same seeded random single messages (random topics incl. non-ASCII, queue ids, bodies of 0 to
 * ~4 KB, random properties incl. non-ASCII, delay levels, v4 and v6 born and store hosts, every transaction type,
 * messages over maxMessageSize and over Short.MAX_VALUE of properties, 64 KB CommitLog files so END_OF_FILE happens
 * often) go into a real store loaded from stock lib/ and from patched lib/ (only P20 on, so that no other patch
 * changes what is compared; and with every patch off). Every PutMessageResult must be the same (status, append
 * status, wroteOffset, wroteBytes, msgId, logicsOffset), the topicQueueTable too, and the CommitLog files byte for
 * byte, masking two things: the 8 bytes of each message's store timestamp (stock sets it from the clock under the
 * lock; it cannot be fixed from outside) and the tail of each END_OF_FILE blank after its 8-byte header (stock writes
 * there whatever its append buffer last held, "may be any value", and nothing reads it; the patched store's append
 * buffer holds no message).
 */
class EncodeOutsideLockIT {

    private static final String DRIVER = EncodeOutsideLockDriver.class.getName();
    private static final int MESSAGE_MAGIC_CODE = -626843481;
    private static final int BLANK_MAGIC_CODE = -875286124;

    @Test
    void patchedStoreWritesWhatStockWrites(@TempDir Path tmp) throws Exception {
        String allButP20 = PatchSwitches.IDS.stream().filter(id -> !id.equals("P20")).collect(Collectors.joining(","));
        for (long seed : new long[] {1L, 20L, 2889L}) {
            int count = 1500;
            Run stock = run(TestCluster.dist("stock").resolve("lib"), null, tmp.resolve("stock-" + seed), seed, count);
            Run patched = run(TestCluster.dist("patched").resolve("lib"), allButP20, tmp.resolve("patched-" + seed),
                seed, count);
            Run off = run(TestCluster.dist("patched").resolve("lib"), String.join(",", PatchSwitches.IDS),
                tmp.resolve("off-" + seed), seed, count);
            String made = patched.lines.remove(patched.lines.size() - 1);
            assertTrue(made.contains("async dev.rmqpatch.codec.store.EncodeOutsideLock$EncodedAppendResult="),
                "P20 made results of asyncPutMessage: " + made);
            assertTrue(made.contains("sync dev.rmqpatch.codec.store.EncodeOutsideLock$EncodedAppendResult="),
                "P20 made results of putMessage: " + made);
            System.out.println("[EncodeOutsideLockIT] seed " + seed + " patched " + made);
            assertTrue(made.contains("org.apache.rocketmq.store.AppendMessageResult="), "stock's body made some: " + made);
            assertTrue(!stock.lines.remove(stock.lines.size() - 1).contains("EncodeOutsideLock"), "stock");
            assertTrue(!off.lines.remove(off.lines.size() - 1).contains("EncodeOutsideLock"), "P20 off");
            assertEquals(stock.lines, patched.lines, "results, seed " + seed);
            assertEquals(stock.lines, off.lines, "results with every patch off, seed " + seed);
            String all = String.join("\n", stock.lines);
            for (String expected : new String[] {"PUT_OK PUT_OK", "MESSAGE_ILLEGAL MESSAGE_SIZE_EXCEEDED",
                "MESSAGE_ILLEGAL PROPERTIES_SIZE_EXCEEDED", "sysFlag=4", "sysFlag=12", "sysFlag=8", "sysFlag=16",
                "sysFlag=32", "topic=SCHEDULE_TOPIC_XXXX"}) {
                assertTrue(all.contains(expected), "the run covers " + expected + ", seed " + seed);
            }
            assertEquals(stock.files.size(), patched.files.size(), "CommitLog files, seed " + seed);
            assertTrue(stock.files.size() > 10, "crosses many file ends: " + stock.files.size());
            int blanks = 0;
            for (int f = 0; f < stock.files.size(); f++) {
                byte[] s = stock.files.get(f);
                byte[] p = patched.files.get(f);
                blanks += mask(s);
                mask(p);
                assertArrayEquals(s, p, "CommitLog file " + f + ", seed " + seed);
                byte[] o = off.files.get(f);
                mask(o);
                assertArrayEquals(s, o, "CommitLog file " + f + " with every patch off, seed " + seed);
            }
            assertTrue(blanks > 10, "END_OF_FILE blanks: " + blanks);
        }
    }

    private static final class Run {
        List<String> lines;
        List<byte[]> files = new ArrayList<>();
    }

    @SuppressWarnings("unchecked")
    private static Run run(Path lib, String disable, Path root, long seed, int count) throws Exception {
        Files.createDirectories(root);
        try (URLClassLoader libLoader = LibLoaders.of(lib); DriverLoader driver = new DriverLoader(libLoader, DRIVER)) {
            if (disable != null) {
                Class<?> sw = LibLoaders.switches(libLoader, disable);
                assertEquals(!disable.contains("P20,") && !disable.endsWith("P20"), sw.getField("P20").getBoolean(null));
            }
            Run run = new Run();
            run.lines = (List<String>) Class.forName(DRIVER, true, driver)
                .getMethod("run", String.class, long.class, int.class).invoke(null, root.toString(), seed, count);
            try (Stream<Path> files = Files.list(root.resolve("commitlog"))) {
                for (Path f : (Iterable<Path>) files.sorted()::iterator) {
                    run.files.add(Files.readAllBytes(f));
                }
            }
            return run;
        }
    }

    /** Zeroes each message's store timestamp and the tail of the END_OF_FILE blank; returns the blanks seen. */
    static int mask(byte[] file) {
        ByteBuffer b = ByteBuffer.wrap(file);
        int pos = 0;
        while (pos + 8 <= file.length) {
            int size = b.getInt(pos);
            int magic = b.getInt(pos + 4);
            if (magic == MESSAGE_MAGIC_CODE) {
                int sysFlag = b.getInt(pos + 36);
                int bornHostLength = (sysFlag & 0x10) == 0 ? 8 : 20;
                b.putLong(pos + 48 + bornHostLength, 0L);
                pos += size;
            } else if (magic == BLANK_MAGIC_CODE) {
                for (int i = pos + 8; i < pos + size; i++) {
                    file[i] = 0;
                }
                return 1;
            } else {
                break;
            }
        }
        return 0;
    }
}
