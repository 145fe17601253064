package dev.rmqpatch.patches;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URLClassLoader;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import org.junit.jupiter.api.Test;

/**
 * P36, differential: the same seeded random batches ({@link BatchEncodeDriver}: 0 to 8 messages, random properties with
 * empty values and non-ASCII text, each message's string with the trailing separator as a 4.9.0 client writes it,
 * without as 4.9.1+ clients do, or mixed; batch properties absent or present with CLUSTER, MSG_REGION, TRACE_ON, WAIT;
 * malformed bodies and oversized ones) go through the batch encoder of four loaders: stock 4.9.0's lib/, the patched
 * lib/ (every patch on), the patched lib/ with P20 off (the other patch on the put path), the patched lib/ with P36 off,
 * and stock 4.9.7's store (rocketmq-store 4.9.7 from Maven Central with its own dependencies).
 * <ul>
 *   <li>a batch whose every message lacks the separator (a 4.9.1+ client's): 4.9.7's bytes for the whole batch, each
 *       stored message whole;</li>
 *   <li>each stored message whose properties lack the separator: 4.9.7's bytes, and (batch properties present) not
 *       stock 4.9.0's, which runs them together: the bug exists in stock and is fixed; stock's length;</li>
 *   <li>each one whose properties end with it (a 4.9.0 client's) or are empty, and a batch with none lacking it:
 *       stock 4.9.0's bytes;</li>
 *   <li>malformed and oversized batches: stock 4.9.0's outcome, the same exception (class and message) or bytes;</li>
 *   <li>patched with P36 off = stock 4.9.0 for every batch; patched with P20 off = patched.</li>
 * </ul>
 */
class BatchPropertySeparatorIT {

    private static final String DRIVER = BatchEncodeDriver.class.getName();

    @Test
    void patchedEncoderStoresWhat497StoresAndStock490ForTheRest() throws Exception {
        Path stockLib = TestCluster.dist("stock").resolve("lib");
        Path patchedLib = TestCluster.dist("patched").resolve("lib");
        Path lib497 = Path.of(System.getProperty("rmqpatch.lib497"));
        Map<String, Integer> kinds = new TreeMap<>();
        int fixed = 0;
        int kept = 0;
        int batchKeys = 0;
        for (long seed : new long[] {1L, 36L, 497L}) {
            int count = 2000;
            List<String> stock = run(stockLib, null, seed, count);
            List<String> patched = run(patchedLib, "", seed, count);
            List<String> p20Off = run(patchedLib, "P20", seed, count);
            List<String> off = run(patchedLib, "P36", seed, count);
            List<String> v497 = run(lib497, null, seed, count);
            List<String> v497WithoutBatchKey = run(lib497, null, seed, count, "runWithoutBatchKey");
            assertEquals(stock, off, "P36 off is stock 4.9.0, seed " + seed);
            assertEquals(patched, p20Off, "P20 off changes nothing here, seed " + seed);
            for (int i = 0; i < count; i++) {
                String s = stock.get(i);
                String p = patched.get(i);
                // A batch with a 5.x client's own UNIQ_KEY: P36 joins the batch's properties without it (each message
                // keeps its own id, as on stock 4.9.0; 4.9.7 gives every message the batch's: upstream #9416).
                boolean batchKey = s.split(" ", 2)[0].endsWith("-batchkey");
                String n = batchKey ? v497WithoutBatchKey.get(i) : v497.get(i);
                String[] head = s.split(" ", 3);
                String kind = head[0];
                String shape = head[1];
                kinds.merge(kind + (s.contains(" threw ") ? " (threw)" : ""), 1, Integer::sum);
                String where = "seed " + seed + " batch " + i + " (" + kind + " " + shape + ")";
                if (kind.equals("malformed") || kind.equals("oversized")) {
                    assertEquals(s, p, "stock 4.9.0's outcome, " + where);
                    continue;
                }
                assertTrue(!s.contains(" threw ") && !p.contains(" threw ") && !n.contains(" threw "),
                    "well-formed, " + where + ": stock " + s + "\npatched " + p + "\n4.9.7 " + n);
                boolean batchProps = !kind.endsWith("-nobatchprops");
                if (shape.matches("L+")) {
                    assertEquals(n, p, "a 4.9.1+ client's batch: what 4.9.7 stores, " + where);
                }
                if (!shape.contains("L")) {
                    assertEquals(s, p, "no message lacks the separator: stock 4.9.0's bytes, " + where);
                }
                List<String> sr = records(s);
                List<String> pr = records(p);
                List<String> nr = records(n);
                assertEquals(shape.equals("-") ? 0 : shape.length(), pr.size(), where);
                assertEquals(sr.size(), pr.size(), where);
                assertEquals(nr.size(), pr.size(), where);
                for (int m = 0; m < pr.size(); m++) {
                    String at = where + " message " + m;
                    if (!batchKey || shape.charAt(m) != 'L') {
                        assertEquals(sr.get(m).length(), pr.get(m).length(), "stock's length, " + at);
                    }
                    if (shape.charAt(m) == 'L') {
                        if (batchKey) {
                            assertTrue(!records(v497.get(i)).get(m).equals(pr.get(m)),
                                "4.9.7 joins the batch's UNIQ_KEY, P36 does not, " + at);
                            batchKeys++;
                        }
                        assertEquals(nr.get(m), pr.get(m), "lacks the separator: 4.9.7's bytes, " + at);
                        if (batchProps) {
                            assertTrue(!sr.get(m).equals(pr.get(m)), "stock runs the properties together, " + at);
                            fixed++;
                        }
                    } else {
                        assertEquals(sr.get(m), pr.get(m), "has the separator or no properties: stock's bytes, " + at);
                        kept++;
                    }
                }
            }
        }
        System.out.println("[BatchPropertySeparatorIT] batches by kind: " + kinds + "; messages stored as 4.9.7 "
            + "stores them where stock 4.9.0 runs their properties together: " + fixed + "; stored as stock: " + kept);
        assertTrue(fixed > 1000 && kept > 1000 && batchKeys > 200, "fixed " + fixed + ", kept " + kept
            + ", without the batch's UNIQ_KEY " + batchKeys);
        for (String k : new String[] {"v490", "v491", "v491-batchkey", "mixed", "malformed (threw)",
            "oversized (threw)", "v491-nobatchprops"}) {
            assertTrue(kinds.getOrDefault(k, 0) > 5, "the run covers " + k + ": " + kinds);
        }
    }

    /** The stored messages of an encoded batch line, each as hex, cut by their TOTALSIZE. */
    private static List<String> records(String line) {
        String hex = line.split(" ", 3)[2];
        byte[] b = HexFormat.of().parseHex(hex);
        List<String> out = new ArrayList<>();
        ByteBuffer buf = ByteBuffer.wrap(b);
        int pos = 0;
        while (pos < b.length) {
            int size = buf.getInt(pos);
            out.add(hex.substring(2 * pos, 2 * (pos + size)));
            pos += size;
        }
        return out;
    }

    private static List<String> run(Path lib, String disable, long seed, int count) throws Exception {
        return run(lib, disable, seed, count, "run");
    }

    private static List<String> run(Path lib, String disable, long seed, int count, String method) throws Exception {
        try (URLClassLoader libLoader = LibLoaders.of(lib); DriverLoader driver = new DriverLoader(libLoader, DRIVER)) {
            if (disable != null) {
                Class<?> sw = LibLoaders.switches(libLoader, disable);
                assertEquals(!disable.contains("P36"), sw.getField("P36").getBoolean(null));
            }
            @SuppressWarnings("unchecked")
            List<String> lines = (List<String>) Class.forName(DRIVER, true, driver)
                .getMethod(method, long.class, int.class).invoke(null, seed, count);
            return lines;
        }
    }
}
