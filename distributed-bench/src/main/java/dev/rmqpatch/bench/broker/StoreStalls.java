package dev.rmqpatch.bench.broker;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import dev.rmqpatch.stall.StallLine;
import dev.rmqpatch.stall.StallPlan;
import dev.rmqpatch.stall.StallPoint;

/**
 * {@code compare --stall POINT:MILLIS/EVERY_MILLIS}: the stall agent (module stall-agent, a test and harness tool, never
 * in a delivered broker) on the master broker JVM of every variant's cluster, and what it did: each stall's start,
 * length and thread read back from the broker's output ({@link StallLine}), and the sends that failed meanwhile. The
 * points, limits and the agent's argument are the agent's own ({@link StallPoint}, {@link StallPlan}); this class checks
 * a command line with them before any broker starts.
 */
public final class StoreStalls {
    /** The agent jar, relative to the repository root (stall-agent's build output). */
    public static final String JAR = "stall-agent/target/rmqpatch-stall-agent.jar";
    /** What builds it when it is missing (from the repository root). */
    public static final String BUILD = "mvn -B -q -pl stall-agent -am -DskipTests package";
    public static final List<String> POINTS =
        java.util.Arrays.stream(StallPoint.values()).map(p -> p.name().toLowerCase(Locale.ROOT)).toList();
    static final long MAX_MILLIS = StallPlan.MAX_MILLIS;
    static final long MAX_EVERY_MILLIS = StallPlan.MAX_EVERY_MILLIS;
    static final long MAX_AFTER_MILLIS = StallPlan.MAX_AFTER_MILLIS;
    /**
     * Start-up time counted per cluster before the warm-up begins (a name server and broker on 2 busy cores, the agents'
     * preparation): generous, so that stalls begin after the warm-up rather than in it.
     */
    public static final long START_UP_MILLIS = 10_000;

    private static final Pattern SPEC = Pattern.compile("([a-z]+):([0-9]{1,9})/([0-9]{1,9})");
    /**
     * Jar paths put into a broker's JAVA_OPT, which RocketMQ's bin scripts split on white space unquoted, and which
     * -javaagent cuts at its first '=': only characters neither reads specially.
     */
    private static final Pattern SAFE_PATH = Pattern.compile("[A-Za-z0-9_./+-]+");

    private StoreStalls() {
    }

    /** A parsed --stall value: which point stalls, for how long, how often. */
    public record Plan(String point, long millis, long everyMillis) {
        /** {@code append:500/2000}; an error naming the expected form, or the limit crossed. */
        public static Plan parse(String text) {
            Matcher m = SPEC.matcher(text.trim());
            if (!m.matches()) {
                throw new IllegalArgumentException("--stall must be POINT:MILLIS/EVERY_MILLIS with POINT one of " + String.join(", ", POINTS)
                    + " (e.g. append:500/2000: a 500 ms stall every 2000 ms), not '" + text + "'");
            }
            if (!POINTS.contains(m.group(1))) {
                throw new IllegalArgumentException("--stall: unknown point '" + m.group(1) + "' (one of " + String.join(", ", POINTS) + ")");
            }
            long millis = Long.parseLong(m.group(2));
            long every = Long.parseLong(m.group(3));
            if (millis < 1 || millis > MAX_MILLIS) {
                throw new IllegalArgumentException("--stall: MILLIS must be between 1 and " + MAX_MILLIS + ", not " + millis);
            }
            if (every <= millis || every > MAX_EVERY_MILLIS) {
                throw new IllegalArgumentException("--stall: EVERY_MILLIS must be longer than MILLIS (" + millis + ") and at most "
                    + MAX_EVERY_MILLIS + ", not " + every);
            }
            return new Plan(m.group(1), millis, every);
        }

        /** As written on the command line. */
        public String label() {
            return point + ":" + millis + "/" + everyMillis;
        }

        /** The broker JVM flag: the agent with this plan, its first stall {@code afterMillis} after the JVM started. */
        public String jvmOption(Path jar, long afterMillis) {
            return jvmOption(jar, afterMillis, Long.MAX_VALUE);
        }

        /** The same, at most {@code times} stalls per JVM (1: a single stall; {@code Long.MAX_VALUE}: no bound). */
        public String jvmOption(Path jar, long afterMillis, long times) {
            return "-javaagent:" + jar + "=" + StallPlan.argument(StallPoint.named(point), millis, everyMillis,
                Math.min(afterMillis, MAX_AFTER_MILLIS), times);
        }
    }

    /**
     * The agent jar of the repository at {@code repoRoot}, or an error saying how to build it; also one whose path the
     * broker's bin script would split.
     */
    public static Path agentJar(Path repoRoot) {
        Path jar = repoRoot.resolve(JAR).toAbsolutePath().normalize();
        if (!Files.isRegularFile(jar)) {
            throw new IllegalArgumentException("--stall needs the stall agent jar " + jar + ", which is missing; run mvn package first: "
                + BUILD + " (in " + repoRoot + "), or let scripts/compare.sh build it");
        }
        if (!SAFE_PATH.matcher(jar.toString()).matches()) {
            throw new IllegalArgumentException("--stall: the stall agent jar's path " + jar + " has characters a broker's JAVA_OPT cannot "
                + "carry (white space, '=' ...); move the repository to a plainer path");
        }
        return jar;
    }

    /** One stall as the broker printed it. */
    public static final class Stall {
        /** The saturation round whose broker stalled; absent in efficiency mode (one broker per variant). */
        public Integer round;
        public int n;
        /** Wall-clock start, epoch ms. */
        public long at;
        public long ms;
        public String thread;
        /** The thread's group as the harness's thread figures name it ({@link ThreadCosts#groupOf}): netty-io, send ... */
        public String threadGroup;
    }

    /** A variant's stalls and failed sends, as results.json records them. */
    public static final class Record {
        /** The --stall value. */
        public String plan;
        /** No stall before this long after each master broker JVM started. */
        public long afterMillis;
        public int count;
        /** On a netty IO thread (NettyServerNIOSelector_*): where a stall holds every connection that thread reads. */
        public int onIoThreads;
        /** On a send-executor thread (SendMessageThread_*), as on stock. */
        public int onSendExecutor;
        public int onOtherThreads;
        /** Failed sends of the windows the record covers (see the plan's docs), split by how they failed. */
        public long sendsAnsweredWithError;
        public long sendsTimedOut;
        public long sendsFailedOtherwise;
        public List<Stall> stalls = new ArrayList<>();

        public Record(Plan p, long afterMillis) {
            this.plan = p.label();
            this.afterMillis = Math.min(afterMillis, MAX_AFTER_MILLIS);
        }

        /** Adds the stalls printed to {@code brokerOutput} (none when it does not exist), tagged with {@code round} (or null). */
        public void read(Path brokerOutput, Integer round) throws IOException {
            if (!Files.exists(brokerOutput)) {
                return;
            }
            for (Stall s : parse(Files.readString(brokerOutput, StandardCharsets.ISO_8859_1))) {
                s.round = round;
                add(s);
            }
        }

        void add(Stall s) {
            stalls.add(s);
            count++;
            switch (s.threadGroup) {
                case "netty-io" -> onIoThreads++;
                case "send" -> onSendExecutor++;
                default -> onOtherThreads++;
            }
        }

        /**
         * Splits failed sends by kind (the agents' keys: exception type or broker response code): answered with an error
         * (the broker's response: SYSTEM_BUSY and the like), timed out (no answer within the send timeout), or otherwise
         * (a lost connection ...). Replaces the previous count: a plan recounts as its rounds or windows come in.
         */
        public void countSendFailures(Map<String, Long> errorsByKind) {
            sendsAnsweredWithError = 0;
            sendsTimedOut = 0;
            sendsFailedOtherwise = 0;
            if (errorsByKind == null) {
                return;
            }
            errorsByKind.forEach((kind, n) -> {
                if (kind.startsWith("BrokerResponse(") || kind.contains("MQBrokerException")) {
                    sendsAnsweredWithError += n;
                } else if (kind.toLowerCase(Locale.ROOT).contains("timeout") || kind.contains("RemotingTooMuchRequestException")) {
                    // The stock client's "sendDefaultImpl call timeout" comes as RemotingTooMuchRequestException.
                    sendsTimedOut += n;
                } else {
                    sendsFailedOtherwise += n;
                }
            });
        }

        /** One short line: how many stalls, on which threads, and the failed sends. */
        public String line(String variant) {
            return String.format(Locale.ROOT, "  %s: %d stall(s): %d on IO threads, %d on send-executor threads, %d on others; sends "
                + "answered with an error %,d, timed out %,d, failed otherwise %,d", variant, count, onIoThreads, onSendExecutor,
                onOtherThreads, sendsAnsweredWithError, sendsTimedOut, sendsFailedOtherwise);
        }
    }

    /** The stall lines of a broker's output, in the order printed. */
    static List<Stall> parse(String output) {
        List<Stall> out = new ArrayList<>();
        for (StallLine line : StallLine.parse(output)) {
            Stall s = new Stall();
            s.n = line.n;
            s.at = line.at;
            s.ms = line.ms;
            s.thread = line.thread;
            s.threadGroup = ThreadCosts.groupOf(s.thread);
            out.add(s);
        }
        return out;
    }

    /** The lines the run ends with: a heading, then one per variant; empty without --stall. */
    public static String summary(Map<String, Record> byVariant, String where) {
        if (byVariant.isEmpty()) {
            return "";
        }
        Record any = byVariant.values().iterator().next();
        StringBuilder b = new StringBuilder(String.format(Locale.ROOT, "Store stalls (--stall %s, on each master broker from %.0f s "
            + "after its start; sends: %s):%n", any.plan, any.afterMillis / 1000.0, where));
        byVariant.forEach((v, r) -> b.append(r.line(v)).append(System.lineSeparator()));
        return b.toString();
    }

    /** An empty map keyed by variant, in order: what the plans fill. */
    public static Map<String, Record> records(List<String> variants, Plan p, long afterMillis) {
        Map<String, Record> m = new LinkedHashMap<>();
        if (p != null) {
            variants.forEach(v -> m.put(v, new Record(p, afterMillis)));
        }
        return m;
    }
}
