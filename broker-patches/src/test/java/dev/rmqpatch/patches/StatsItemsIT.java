package dev.rmqpatch.patches;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.net.URLClassLoader;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.atomic.AtomicLong;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * P21 on the real classes: stock lib/, patched lib/ and patched lib/ with {@code -Drmqpatch.disable=P21} loaded side
 * by side in isolated class loaders (so the verifier checks the rewritten StatsItem, StatsItemSet, BrokerStatsManager
 * and StoreStatsService), and the same random statistics recorded in each: BrokerStatsManager's per-send and per-pull
 * calls (TOPIC_PUT_NUMS/SIZE, GROUP_GET_*, SNDBCK_PUT_NUMS, BROKER_PUT/GET_NUMS), StatsItemSet.addRTValue, and
 * StoreStatsService's put-latency histogram, from one thread and from several at once. Every StatsItem's minute, hour
 * and day snapshot (sum, times, average; not the TPS, which divides by the sampling clock) and the histogram the
 * runtime info reports must be stock's; with the switch off the counters are stock's plain AtomicLongs.
 */
class StatsItemsIT {

    private static final int THREADS = 4;

    private static URLClassLoader stock;
    private static URLClassLoader patched;
    private static URLClassLoader switchedOff;

    @BeforeAll
    static void loaders() throws Exception {
        stock = LibLoaders.of(TestCluster.dist("stock").resolve("lib"));
        patched = LibLoaders.of(TestCluster.dist("patched").resolve("lib"));
        switchedOff = LibLoaders.of(TestCluster.dist("patched").resolve("lib"));
        Class<?> switches = LibLoaders.switches(switchedOff, "P21");
        assertFalse(switches.getField("P21").getBoolean(null));
        assertTrue(switches.getField("P18").getBoolean(null));
    }

    @AfterAll
    static void close() throws Exception {
        stock.close();
        patched.close();
        switchedOff.close();
    }

    @Test
    void sameStatisticsAsStockFromOneThread() throws Exception {
        long seed = new Random().nextLong();
        Stats s = new Stats(stock);
        Stats p = new Stats(patched);
        Stats o = new Stats(switchedOff);
        try {
            Random r = new Random(seed);
            for (int i = 0; i < 20_000; i++) {
                Op op = Op.random(r);
                op.apply(s);
                op.apply(p);
                op.apply(o);
                if (i % 4_999 == 0) {
                    // report() samples, as the broker's timers do: in every loader at the same points.
                    Map<String, String> want = s.report();
                    assertSameReport(want, p.report(), "seed " + seed + " after " + i);
                    assertSameReport(want, o.report(), "switched off, seed " + seed + " after " + i);
                }
            }
            Map<String, String> want = s.report();
            assertSameReport(want, p.report(), "seed " + seed);
            assertSameReport(want, o.report(), "switched off, seed " + seed);
            assertEquals(s.seen, p.seen, "what getValue()/getTimes() and the samples showed, seed " + seed);
            assertEquals(s.seen, o.seen, "switched off, seed " + seed);
            assertTrue(s.seen.stream().anyMatch(x -> !x.equals("null") && !x.startsWith("0")), s.seen.toString());
            assertTrue(want.size() > 20, want.toString());
        } finally {
            s.close();
            p.close();
            o.close();
        }
    }

    @Test
    void sameStatisticsAsStockFromConcurrentThreads() throws Exception {
        long seed = new Random().nextLong();
        Stats s = new Stats(stock);
        Stats p = new Stats(patched);
        try {
            // Every item the ops read or write through stock's API exists on both sides before the threads start:
            // otherwise a write through getValue() (op 12) finds an item on one side that another thread has not yet
            // made on the other, and the two totals differ by how the threads interleaved, not by the patch.
            for (int t = 0; t < 30; t++) {
                for (int g = 0; g < 4; g++) {
                    for (int kind : new int[] {0, 2, 3, 6, 7, 9}) {
                        Op made = new Op(kind, "topic-" + t, "group-" + g, 1, 0);
                        made.apply(s);
                        made.apply(p);
                    }
                }
            }
            CountDownLatch start = new CountDownLatch(1);
            List<Thread> threads = new ArrayList<>();
            List<Throwable> failures = new ArrayList<>();
            for (int t = 0; t < THREADS; t++) {
                Random r = new Random(seed + t);
                Thread thread = new Thread(() -> {
                    try {
                        start.await();
                        for (int i = 0; i < 30_000; i++) {
                            Op op = Op.random(r);
                            if (op.kind >= 13) {
                                continue; // a sample between concurrent adds holds whatever had finished: not comparable
                            }
                            op.apply(s);
                            op.apply(p);
                        }
                    } catch (Throwable e) {
                        synchronized (failures) {
                            failures.add(e);
                        }
                    }
                });
                thread.start();
                threads.add(thread);
            }
            start.countDown();
            for (Thread thread : threads) {
                thread.join();
            }
            assertTrue(failures.isEmpty(), failures::toString);
            assertSameReport(s.report(), p.report(), "seed " + seed);
        } finally {
            s.close();
            p.close();
        }
    }

    @Test
    void patchedCountersAreAddedCountersAndSwitchedOffOnesStocks() throws Exception {
        Stats p = new Stats(patched);
        Stats o = new Stats(switchedOff);
        try {
            for (Stats x : new Stats[] {p, o}) {
                x.call(x.manager, "incTopicPutNums", new Class<?>[] {String.class}, "T");
                Object item = x.call(x.manager, "getStatsItem", new Class<?>[] {String.class, String.class},
                    "TOPIC_PUT_NUMS", "T");
                Object value = x.call(item, "getValue", new Class<?>[0]);
                AtomicLong[] histogram = (AtomicLong[]) field(x.store, "putMessageDistributeTime");
                String expected = x == p ? "dev.rmqpatch.codec.stats.AddedCounter" : AtomicLong.class.getName();
                assertEquals(expected, value.getClass().getName());
                assertEquals(expected, histogram[0].getClass().getName());
            }
            // Stock's raw AtomicLong holds the writes while the patch is off; with it on, the adder does, and
            // getValue() folds it into the AtomicLong it returns (upstream's StatsItemSetTest, BrokerStatsManagerTest).
            Object off = o.call(o.call(o.manager, "getStatsItem", new Class<?>[] {String.class, String.class},
                "TOPIC_PUT_NUMS", "T"), "getValue", new Class<?>[0]);
            assertEquals(1L, ((AtomicLong) off).get());
            Object onItem = p.call(p.manager, "getStatsItem", new Class<?>[] {String.class, String.class}, "TOPIC_PUT_NUMS", "T");
            p.call(p.manager, "incTopicPutNums", new Class<?>[] {String.class}, "T");
            assertEquals(1L, ((AtomicLong) field(onItem, "value")).get(), "the second add went to the adder");
            assertEquals(2L, ((AtomicLong) p.call(onItem, "getValue", new Class<?>[0])).get());
            assertEquals(2L, ((AtomicLong) field(onItem, "value")).get(), "getValue() folded it in");
            assertEquals(2L, ((AtomicLong) p.call(onItem, "getTimes", new Class<?>[0])).get());
            // The private printTps reader (the [PAGECACHERT] log line) links and runs on the patched class; it needs
            // the sampling lists the service's thread fills, so one sample is taken first.
            Method sampling = p.store.getClass().getDeclaredMethod("sampling");
            sampling.setAccessible(true);
            sampling.invoke(p.store);
            Field last = p.store.getClass().getDeclaredField("lastPrintTimestamp");
            last.setAccessible(true);
            last.setLong(p.store, 0L);
            Method printTps = p.store.getClass().getDeclaredMethod("printTps");
            printTps.setAccessible(true);
            p.call(p.store, "setPutMessageEntireTimeMax", new Class<?>[] {long.class}, 3L);
            printTps.invoke(p.store);
            AtomicLong[] fresh = (AtomicLong[]) field(p.store, "putMessageDistributeTime");
            assertEquals("dev.rmqpatch.codec.stats.AddedCounter", fresh[1].getClass().getName(), "swapped-in array");
        } finally {
            p.close();
            o.close();
        }
    }

    /**
     * P18's counters through stock's API: what the put paths add (through the method P18 adds, then the codec's add,
     * as the patched CommitLog and doReput do) is what {@code getSinglePutMessageTopicTimesTotal(t).get()}, the maps of
     * {@code getPutMessageTopicTimesTotal()} and the totals show, as on stock; a write through the getter counts too.
     */
    @Test
    void storePutCountersReadThroughStocksApiAsStock() throws Exception {
        Random r = new Random();
        long seed = r.nextLong();
        r.setSeed(seed);
        Object stockSss = Class.forName("org.apache.rocketmq.store.StoreStatsService", true, stock).getConstructor().newInstance();
        Class<?> sssClass = Class.forName("org.apache.rocketmq.store.StoreStatsService", true, patched);
        Object patchedSss = sssClass.getConstructor().newInstance();
        // The put paths' way to a topic's counter: the method P18 adds (before it, they called the public getter).
        Method addedTimes = putPathCounter(sssClass, "rmqpatch$P18$topicTimes", "getSinglePutMessageTopicTimesTotal");
        Method addedSize = putPathCounter(sssClass, "rmqpatch$P18$topicSize", "getSinglePutMessageTopicSizeTotal");
        Method add = Class.forName("dev.rmqpatch.codec.stats.TopicPutCounters", true, patched)
            .getMethod("add", AtomicLong.class, long.class);
        for (int i = 0; i < 5_000; i++) {
            String topic = "t" + r.nextInt(5);
            int bytes = r.nextInt(4_000);
            switch (r.nextInt(4)) {
                case 0: // a put, as CommitLog's put paths count it
                    ((AtomicLong) stockSss.getClass().getMethod("getSinglePutMessageTopicTimesTotal", String.class)
                        .invoke(stockSss, topic)).incrementAndGet();
                    ((AtomicLong) stockSss.getClass().getMethod("getSinglePutMessageTopicSizeTotal", String.class)
                        .invoke(stockSss, topic)).addAndGet(bytes);
                    add.invoke(null, addedTimes.invoke(null, patchedSss, topic), 1L);
                    add.invoke(null, addedSize.invoke(null, patchedSss, topic), (long) bytes);
                    break;
                case 1: // a write through stock's API (DLedgerCommitLog, a plugin)
                    for (Object sss : new Object[] {stockSss, patchedSss}) {
                        ((AtomicLong) sss.getClass().getMethod("getSinglePutMessageTopicSizeTotal", String.class)
                            .invoke(sss, topic)).addAndGet(bytes);
                    }
                    break;
                default: // reads through stock's API
                    for (String getter : new String[] {"getSinglePutMessageTopicTimesTotal", "getSinglePutMessageTopicSizeTotal"}) {
                        long want = ((AtomicLong) stockSss.getClass().getMethod(getter, String.class).invoke(stockSss, topic)).get();
                        long got = ((AtomicLong) sssClass.getMethod(getter, String.class).invoke(patchedSss, topic)).get();
                        assertEquals(want, got, getter + "(" + topic + ").get(), seed " + seed + " step " + i);
                    }
                    for (String map : new String[] {"getPutMessageTopicTimesTotal", "getPutMessageTopicSizeTotal"}) {
                        assertEquals(String.valueOf(new TreeMap<>((Map<?, ?>) stockSss.getClass().getMethod(map).invoke(stockSss))),
                            String.valueOf(new TreeMap<>((Map<?, ?>) sssClass.getMethod(map).invoke(patchedSss))),
                            map + "(), seed " + seed + " step " + i);
                    }
                    for (String total : new String[] {"getPutMessageTimesTotal", "getPutMessageSizeTotal"}) {
                        assertEquals(stockSss.getClass().getMethod(total).invoke(stockSss),
                            sssClass.getMethod(total).invoke(patchedSss), total + "(), seed " + seed + " step " + i);
                    }
                    break;
            }
        }
    }

    /** The static method P18 adds (called with the service first), or else the getter, as a static-style call. */
    private static Method putPathCounter(Class<?> sssClass, String added, String getter) throws Exception {
        try {
            return sssClass.getMethod(added, sssClass, String.class);
        } catch (NoSuchMethodException e) {
            return Class.forName(StatsItemsIT.class.getName() + "$Getters").getMethod(getter, Object.class, String.class);
        }
    }

    /** The public getters in the static shape of the added methods (for the test's run without P18's fix). */
    public static final class Getters {
        public static AtomicLong getSinglePutMessageTopicTimesTotal(Object sss, String topic) throws Exception {
            return (AtomicLong) sss.getClass().getMethod("getSinglePutMessageTopicTimesTotal", String.class).invoke(sss, topic);
        }

        public static AtomicLong getSinglePutMessageTopicSizeTotal(Object sss, String topic) throws Exception {
            return (AtomicLong) sss.getClass().getMethod("getSinglePutMessageTopicSizeTotal", String.class).invoke(sss, topic);
        }
    }

    /** One broker's statistics objects, from one class loader. */
    private static final class Stats {
        final ClassLoader cl;
        final ScheduledExecutorService executor = Executors.newSingleThreadScheduledExecutor();
        final Object manager;
        final Object rtSet;
        final Object store;

        Stats(ClassLoader cl) throws Exception {
            this.cl = cl;
            Class<?> bsm = Class.forName("org.apache.rocketmq.store.stats.BrokerStatsManager", true, cl);
            manager = bsm.getConstructor(String.class).newInstance("StatsItemsIT");
            Class<?> logger = Class.forName("org.apache.rocketmq.logging.InternalLogger", true, cl);
            Object log = Class.forName("org.apache.rocketmq.logging.InternalLoggerFactory", true, cl)
                .getMethod("getLogger", String.class).invoke(null, "StatsItemsIT");
            rtSet = Class.forName("org.apache.rocketmq.common.stats.StatsItemSet", true, cl)
                .getConstructor(String.class, ScheduledExecutorService.class, logger)
                .newInstance("RT", executor, log);
            store = Class.forName("org.apache.rocketmq.store.StoreStatsService", true, cl).getConstructor().newInstance();
            // No sampling but report()'s: the StatsItemSets' timers (every 10 s from construction) would otherwise
            // take a snapshot between two operations in one class loader and not in another whenever a run is slow.
            // Their first run, at construction, finds no items yet.
            call(manager, "shutdown", new Class<?>[0]);
            executor.shutdown();
        }

        /** What the API reads of this run saw, in order (compared between loaders in one-thread runs). */
        final List<String> seen = new ArrayList<>();

        synchronized void seen(String what) {
            seen.add(what);
        }

        Object call(Object target, String name, Class<?>[] types, Object... args) throws Exception {
            Method m = target.getClass().getMethod(name, types);
            return m.invoke(target, args);
        }

        /**
         * What the broker reports from these counters: each StatsItem sampled as the broker's timers do, then its
         * three snapshots without TPS; and the histogram as runtime info prints it.
         */
        @SuppressWarnings("unchecked")
        Map<String, String> report() throws Exception {
            Map<String, String> out = new TreeMap<>();
            Map<String, Object> sets = new TreeMap<>((Map<String, Object>) field(manager, "statsTable"));
            sets.put("RT", rtSet);
            for (Map.Entry<String, Object> set : sets.entrySet()) {
                Map<String, Object> items = new TreeMap<>((Map<String, Object>) field(set.getValue(), "statsItemTable"));
                for (Map.Entry<String, Object> item : items.entrySet()) {
                    Object it = item.getValue();
                    out.put(set.getKey() + "/" + item.getKey() + "/getValue,getTimes",
                        ((AtomicLong) call(it, "getValue", new Class<?>[0])).get() + " "
                            + ((AtomicLong) call(it, "getTimes", new Class<?>[0])).get());
                    call(it, "samplingInSeconds", new Class<?>[0]);
                    call(it, "samplingInMinutes", new Class<?>[0]);
                    call(it, "samplingInHour", new Class<?>[0]);
                    for (String when : new String[] {"Minute", "Hour", "Day"}) {
                        Object snap = call(it, "getStatsDataIn" + when, new Class<?>[0]);
                        out.put(set.getKey() + "/" + item.getKey() + "/" + when,
                            call(snap, "getSum", new Class<?>[0]) + " " + call(snap, "getTimes", new Class<?>[0])
                                + " " + call(snap, "getAvgpt", new Class<?>[0]));
                    }
                }
            }
            // What runtime info and toString() print as putMessageDistributeTime (getRuntimeInfo itself needs the
            // service's sampling thread, which is not started here).
            Method histogram = store.getClass().getDeclaredMethod("getPutMessageDistributeTimeStringInfo", Long.class);
            histogram.setAccessible(true);
            out.put("store/putMessageDistributeTime", (String) histogram.invoke(store, 1L));
            out.put("store/putMessageEntireTimeMax", String.valueOf(call(store, "getPutMessageEntireTimeMax", new Class<?>[0])));
            return out;
        }

        void close() throws Exception {
            call(manager, "shutdown", new Class<?>[0]);
            call(store, "shutdown", new Class<?>[0]);
            executor.shutdownNow();
        }
    }

    /** One statistics call as the broker makes it per send, pull or put, with random arguments. */
    private static final class Op {
        final int kind;
        final String topic;
        final String group;
        final int n;
        final long latency;

        private Op(int kind, String topic, String group, int n, long latency) {
            this.kind = kind;
            this.topic = topic;
            this.group = group;
            this.n = n;
            this.latency = latency;
        }

        static Op random(Random r) {
            long[] bounds = {0, 10, 50, 100, 200, 500, 1000, 2000, 3000, 4000, 5000, 10000, 20000};
            long latency = r.nextInt(5) == 0 ? bounds[r.nextInt(bounds.length)] - r.nextInt(2) : r.nextInt(12_000) - 5;
            return new Op(r.nextInt(15), "topic-" + r.nextInt(r.nextBoolean() ? 3 : 30), "group-" + r.nextInt(4),
                1 + r.nextInt(r.nextBoolean() ? 4 : 4_000), latency);
        }

        void apply(Stats s) throws Exception {
            Object m = s.manager;
            switch (kind) {
                case 0:
                    s.call(m, "incTopicPutNums", new Class<?>[] {String.class}, topic);
                    break;
                case 1:
                    s.call(m, "incTopicPutNums", new Class<?>[] {String.class, int.class, int.class}, topic, n, 1 + n % 3);
                    break;
                case 2:
                    s.call(m, "incTopicPutSize", new Class<?>[] {String.class, int.class}, topic, n);
                    break;
                case 3:
                    s.call(m, "incGroupGetNums", new Class<?>[] {String.class, String.class, int.class}, group, topic, n);
                    break;
                case 4:
                    s.call(m, "incGroupGetSize", new Class<?>[] {String.class, String.class, int.class}, group, topic, n);
                    break;
                case 5:
                    s.call(m, "incGroupGetLatency", new Class<?>[] {String.class, String.class, int.class, int.class},
                        group, topic, n % 4, n);
                    break;
                case 6:
                    s.call(m, "incBrokerPutNums", new Class<?>[0]);
                    s.call(m, "incBrokerPutNums", new Class<?>[] {int.class}, n);
                    break;
                case 7:
                    s.call(m, "incBrokerGetNums", new Class<?>[] {int.class}, n);
                    break;
                case 8:
                    s.call(m, "incSendBackNums", new Class<?>[] {String.class, String.class}, group, topic);
                    break;
                case 9:
                    s.call(s.rtSet, "addRTValue", new Class<?>[] {String.class, int.class, int.class}, topic, n, 1);
                    break;
                case 10:
                    s.call(s.store, "setPutMessageEntireTimeMax", new Class<?>[] {long.class}, latency);
                    break;
                case 11: { // a plugin's or a monitor's read through stock's API (upstream's tests read so)
                    Object item = item(s);
                    s.seen(item == null ? "null" : ((AtomicLong) s.call(item, "getValue", new Class<?>[0])).get() + "/"
                        + ((AtomicLong) s.call(item, "getTimes", new Class<?>[0])).get());
                    break;
                }
                case 12: { // a write through stock's API, as 4.9.0's own StatsItemSet.addValue wrote
                    Object item = item(s);
                    if (item != null) {
                        s.seen(String.valueOf(((AtomicLong) s.call(item, "getValue", new Class<?>[0])).addAndGet(n)));
                        ((AtomicLong) s.call(item, "getTimes", new Class<?>[0])).incrementAndGet();
                    }
                    break;
                }
                case 13: { // the broker's sampling timer, between two adds
                    Object item = item(s);
                    if (item != null) {
                        s.call(item, "samplingInSeconds", new Class<?>[0]);
                    }
                    break;
                }
                default: {
                    Object item = item(s);
                    if (item != null) {
                        s.call(item, "samplingInMinutes", new Class<?>[0]);
                        Object snap = s.call(item, "getStatsDataInHour", new Class<?>[0]);
                        s.seen(s.call(snap, "getSum", new Class<?>[0]) + " " + s.call(snap, "getTimes", new Class<?>[0]));
                    }
                    break;
                }
            }
        }

        /** A StatsItem this op's topic or group may have created (or null, as stock's getStatsItem answers). */
        private Object item(Stats s) throws Exception {
            String[][] items = {{"TOPIC_PUT_NUMS", topic}, {"TOPIC_PUT_SIZE", topic}, {"BROKER_PUT_NUMS", "StatsItemsIT"},
                {"BROKER_GET_NUMS", "StatsItemsIT"}, {"GROUP_GET_NUMS", topic + "@" + group}, {"RT", topic}};
            String[] which = items[n % items.length];
            if (which[0].equals("RT")) {
                return s.call(s.rtSet, "getStatsItem", new Class<?>[] {String.class}, which[1]);
            }
            return s.call(s.manager, "getStatsItem", new Class<?>[] {String.class, String.class}, which[0], which[1]);
        }
    }

    /** Equal reports, or a failure that names only the entries that differ. */
    private static void assertSameReport(Map<String, String> want, Map<String, String> got, String where) {
        if (!want.equals(got)) {
            StringBuilder sb = new StringBuilder(where);
            java.util.Set<String> keys = new java.util.TreeSet<>(want.keySet());
            keys.addAll(got.keySet());
            int shown = 0;
            for (String k : keys) {
                if (!java.util.Objects.equals(want.get(k), got.get(k)) && shown++ < 20) {
                    sb.append("\n  ").append(k).append(": stock ").append(want.get(k)).append(", here ").append(got.get(k));
                }
            }
            org.junit.jupiter.api.Assertions.fail(sb.toString());
        }
    }

    private static Object field(Object target, String name) throws Exception {
        for (Class<?> c = target.getClass(); c != null; c = c.getSuperclass()) {
            try {
                Field f = c.getDeclaredField(name);
                f.setAccessible(true);
                return f.get(target);
            } catch (NoSuchFieldException e) {
                // the superclass's
            }
        }
        throw new NoSuchFieldException(name);
    }

}
