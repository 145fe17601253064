package dev.rmqpatch.bench.workload;

import dev.rmqpatch.bench.lang.Jdk8;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What to run. Field names follow OpenMessaging Benchmark workload files (topics, partitionsPerTopic, messageSize,
 * producersPerTopic, producerRate, subscriptionsPerTopic, consumerPerSubscription, consumerBacklogSizeGB), with
 * durations in seconds; threadsPerAgent and sendMode are this harness's own. Immutable; the {@code with*} methods apply
 * command-line overrides. {@link #notes()} says what the workload means where OMB would read or run it otherwise.
 */
public final class Workload {
    private final String name;
    private final int topics;
    private final int partitionsPerTopic;
    private final int messageSize;
    private final int producersPerTopic;
    private final double producerRate;
    private final int warmupDurationSeconds;
    private final int testDurationSeconds;
    private final int threadsPerAgent;
    private final SendMode sendMode;
    /**
     * Consumer groups per topic and push consumers per group, spread over the agents; as in OMB, either being 0 means no
     * consumers (produce only). Kept as given, so results echo the workload file.
     */
    private int subscriptionsPerTopic;
    private int consumerPerSubscription;
    /** OMB's backlog test: build this much unconsumed data with the consumers suspended, then let them drain it. */
    private double consumerBacklogSizeGB;
    private ClientMode client = ClientMode.ROCKETMQ;
    /** Tags and keys of every message (the harness's own fields); null = none. */
    private String messageTags;
    private String messageKeys;
    /** OMB's keyDistributor, payloadFile / randomized payloads and backlogDrainRatio. */
    private KeyDistributor keyDistributor = KeyDistributor.NO_KEY;
    private Payload payload = Payload.RANDOM_BODY;
    private double backlogDrainRatio = 1.0;
    /**
     * OMB's {@code producerRate: 0} in a workload file: search for the highest rate the consumers keep up with. Unlike
     * {@code producerRate} 0 given any other way (the command line's --rate 0), which means unlimited.
     */
    private boolean maxRateSearch;
    /**
     * Sentences about how the workload file was read where OMB would read or run it otherwise, by the field they are
     * about; overriding that field (a command-line option) drops its sentence.
     */
    private Map<String, String> fileNotes = Collections.emptyMap();

    public Workload(String name, int topics, int partitionsPerTopic, int messageSize, int producersPerTopic,
                    double producerRate, int warmupDurationSeconds, int testDurationSeconds, int threadsPerAgent,
                    SendMode sendMode) {
        this.name = require(name != null && !Jdk8.isBlank(name), name, "name must not be empty");
        this.topics = atLeast("topics", topics, 1);
        this.partitionsPerTopic = atLeast("partitionsPerTopic", partitionsPerTopic, 1);
        this.messageSize = atLeast("messageSize", messageSize, 1);
        this.producersPerTopic = atLeast("producersPerTopic", producersPerTopic, 1);
        if (!(producerRate >= 0) || Double.isInfinite(producerRate)) {
            throw new IllegalArgumentException("producerRate must be 0 (unlimited) or a positive rate, not " + producerRate);
        }
        this.producerRate = producerRate;
        this.warmupDurationSeconds = atLeast("warmupDurationSeconds", warmupDurationSeconds, 0);
        this.testDurationSeconds = atLeast("testDurationSeconds", testDurationSeconds, 1);
        this.threadsPerAgent = atLeast("threadsPerAgent", threadsPerAgent, 1);
        if (sendMode == null) {
            throw new IllegalArgumentException("sendMode must be set");
        }
        this.sendMode = sendMode;
        if (messageSize > 4 * 1024 * 1024) {
            throw new IllegalArgumentException("messageSize " + messageSize + " exceeds the broker's 4 MiB default limit");
        }
    }

    /** The article's workload: one topic with 18 queues, 300-byte bodies, sync send, no rate limit. */
    public static Workload defaults() {
        return new Workload("default", 1, 18, 300, 1, 0, 5, 20, 32, SendMode.SYNC);
    }

    private static <T> T require(boolean ok, T value, String message) {
        if (!ok) {
            throw new IllegalArgumentException(message);
        }
        return value;
    }

    private static int atLeast(String field, int value, int min) {
        if (value < min) {
            throw new IllegalArgumentException(field + " must be at least " + min + ", not " + value);
        }
        return value;
    }

    public String name() { return name; }
    public int topics() { return topics; }
    public int partitionsPerTopic() { return partitionsPerTopic; }
    public int messageSize() { return messageSize; }
    public int producersPerTopic() { return producersPerTopic; }
    /** Total messages per second over all agents; 0 means as fast as the producers go. */
    public double producerRate() { return producerRate; }
    public int warmupDurationSeconds() { return warmupDurationSeconds; }
    public int testDurationSeconds() { return testDurationSeconds; }
    public int threadsPerAgent() { return threadsPerAgent; }
    public SendMode sendMode() { return sendMode; }
    public int subscriptionsPerTopic() { return subscriptionsPerTopic; }
    public int consumerPerSubscription() { return consumerPerSubscription; }
    public double consumerBacklogSizeGB() { return consumerBacklogSizeGB; }
    /**
     * True when the run consumes: then bodies carry the stamp, and end-to-end latency and the count check are measured.
     * OMB creates subscriptionsPerTopic x consumerPerSubscription consumers per topic, so either being 0 means none.
     */
    public boolean hasConsumers() { return subscriptionsPerTopic > 0 && consumerPerSubscription > 0; }
    /** How the agents send: stock producers (rocketmq, the default) or pre-encoded frames (wire). */
    public ClientMode client() { return client; }
    public String messageTags() { return messageTags; }
    public String messageKeys() { return messageKeys; }
    public KeyDistributor keyDistributor() { return keyDistributor; }
    public Payload payload() { return payload; }
    /** Share of the backlog that must be consumed for it to count as drained (OMB: 1.0 = all, 0.0 = best effort). */
    public double backlogDrainRatio() { return backlogDrainRatio; }
    /** True when producerRate 0 came from a workload file: OMB's search for the maximum sustainable rate. */
    public boolean maxRateSearch() { return maxRateSearch; }

    /**
     * What this workload means where OpenMessaging Benchmark would read or run the same file otherwise: one sentence each,
     * to print beside the workload (empty when OMB would run it just as this harness does). For example a subscription
     * without consumers, an OMB default taken for a field the file leaves out, or a fraction in a field OMB reads as a
     * whole number.
     */
    public List<String> notes() {
        List<String> notes = new ArrayList<>();
        if (subscriptionsPerTopic > 0 && consumerPerSubscription == 0) {
            notes.add("subscriptionsPerTopic " + subscriptionsPerTopic + " with consumerPerSubscription 0 (OMB's default when the "
                + "field is left out): no consumers, so this runs produce-only; OMB creates no consumers either, and then stops the "
                + "run after 60 s waiting for them to receive its probe message");
        } else if (subscriptionsPerTopic == 0 && consumerPerSubscription > 0) {
            notes.add("consumerPerSubscription " + consumerPerSubscription + " with subscriptionsPerTopic 0: no subscriptions, so "
                + "no consumers; runs produce-only, as OMB does");
        }
        notes.addAll(fileNotes.values());
        return notes;
    }

    /** The same workload with a sentence about how its file's {@code field} was read (see {@link #notes()}). */
    Workload withNote(String field, String sentence) {
        Workload w = copy();
        Map<String, String> notes = new LinkedHashMap<>(fileNotes);
        notes.put(field, sentence);
        w.fileNotes = Collections.unmodifiableMap(notes);
        return w;
    }

    /** This (new) workload without the note about {@code field}: the field was overridden. */
    private Workload dropNote(String field) {
        if (fileNotes.containsKey(field)) {
            Map<String, String> notes = new LinkedHashMap<>(fileNotes);
            notes.remove(field);
            fileNotes = Collections.unmodifiableMap(notes);
        }
        return this;
    }

    /**
     * Consumers as OMB's fields describe them: {@code subscriptions} consumer groups per topic, {@code perSubscription}
     * push consumers in each (spread over the agents; either 0 = no consumers, as in OMB), and a backlog to build and
     * drain (0 = none; a backlog needs consumers).
     */
    public Workload withConsumers(int subscriptions, int perSubscription, double backlogGB) {
        if (subscriptions < 0 || perSubscription < 0) {
            throw new IllegalArgumentException("subscriptionsPerTopic and consumerPerSubscription must be 0 or more");
        }
        if (!(backlogGB >= 0) || Double.isInfinite(backlogGB)) {
            throw new IllegalArgumentException("consumerBacklogSizeGB must be 0 or more, not " + backlogGB);
        }
        if (backlogGB > 0 && (subscriptions == 0 || perSubscription == 0)) {
            throw new IllegalArgumentException("consumerBacklogSizeGB=" + backlogGB + " needs consumers (subscriptionsPerTopic and "
                + "consumerPerSubscription)");
        }
        Workload w = copy();
        w.subscriptionsPerTopic = subscriptions;
        w.consumerPerSubscription = perSubscription;
        w.consumerBacklogSizeGB = backlogGB;
        return backlogGB == consumerBacklogSizeGB ? w : w.dropNote("consumerBacklogSizeGB");
    }

    /** The same workload without consumers (the harness ceiling against the sink, which serves no pulls). */
    public Workload produceOnly() {
        return withConsumers(0, 0, 0);
    }

    /** A copy with the fields the 10-argument constructor does not take. */
    private Workload extras(Workload from) {
        this.client = from.client;
        this.messageTags = from.messageTags;
        this.messageKeys = from.messageKeys;
        this.subscriptionsPerTopic = from.subscriptionsPerTopic;
        this.consumerPerSubscription = from.consumerPerSubscription;
        this.consumerBacklogSizeGB = from.consumerBacklogSizeGB;
        this.keyDistributor = from.keyDistributor;
        this.payload = from.payload;
        this.backlogDrainRatio = from.backlogDrainRatio;
        this.maxRateSearch = from.maxRateSearch;
        this.fileNotes = from.fileNotes;
        return this;
    }

    public Workload withProducersPerTopic(int v) {
        return new Workload(name, topics, partitionsPerTopic, messageSize, v, producerRate, warmupDurationSeconds, testDurationSeconds,
            threadsPerAgent, sendMode).extras(this).dropNote("producersPerTopic");
    }

    public Workload withClient(ClientMode v) {
        if (v == null) {
            throw new IllegalArgumentException("client must be set");
        }
        Workload w = copy();
        w.client = v;
        return w;
    }

    /** Tags and keys of every message; null or empty = none. Keys are space-separated, as the stock Message takes them. */
    public Workload withMessageTagsAndKeys(String tags, String keys) {
        if (keys != null && !keys.isEmpty() && keyDistributor != KeyDistributor.NO_KEY) {
            throw new IllegalArgumentException("keyDistributor " + keyDistributor + " and messageKeys both set the message keys; give one");
        }
        Workload w = copy();
        w.messageTags = tags == null || tags.isEmpty() ? null : tags;
        w.messageKeys = keys == null || keys.isEmpty() ? null : keys;
        return w;
    }

    public Workload withKeyDistributor(KeyDistributor v) {
        if (v == null) {
            throw new IllegalArgumentException("keyDistributor must be set");
        }
        if (v != KeyDistributor.NO_KEY && messageKeys != null) {
            throw new IllegalArgumentException("keyDistributor " + v + " and messageKeys both set the message keys; give one");
        }
        Workload w = copy();
        w.keyDistributor = v;
        return w;
    }

    public Workload withPayload(Payload v) {
        if (v == null) {
            throw new IllegalArgumentException("payload must be set");
        }
        Workload w = copy();
        w.payload = v;
        return w.dropNote("payloadFile");
    }

    public Workload withBacklogDrainRatio(double v) {
        if (!(v >= 0 && v <= 1)) {
            throw new IllegalArgumentException("backlogDrainRatio must be between 0.0 and 1.0, not " + v);
        }
        Workload w = copy();
        w.backlogDrainRatio = v;
        return w;
    }

    /** OMB's producerRate 0: the rate is searched for during the run (see RateSearch); the rate itself stays 0. */
    public Workload withMaxRateSearch() {
        Workload w = withProducerRate(0);
        w.maxRateSearch = true;
        return w;
    }

    private Workload copy() {
        return new Workload(name, topics, partitionsPerTopic, messageSize, producersPerTopic, producerRate, warmupDurationSeconds,
            testDurationSeconds, threadsPerAgent, sendMode).extras(this);
    }

    public Workload withMessageSize(int v) {
        return new Workload(name, topics, partitionsPerTopic, v, producersPerTopic, producerRate, warmupDurationSeconds, testDurationSeconds, threadsPerAgent, sendMode).extras(this)
            .dropNote("messageSize");
    }

    public Workload withPartitionsPerTopic(int v) {
        return new Workload(name, topics, v, messageSize, producersPerTopic, producerRate, warmupDurationSeconds, testDurationSeconds, threadsPerAgent, sendMode).extras(this)
            .dropNote("partitionsPerTopic");
    }

    public Workload withTopics(int v) {
        return new Workload(name, v, partitionsPerTopic, messageSize, producersPerTopic, producerRate, warmupDurationSeconds, testDurationSeconds, threadsPerAgent, sendMode).extras(this)
            .dropNote("topics");
    }

    /** A fixed rate, or 0 = unlimited; ends a max-rate search (the command line's --rate 0 means unlimited, as always). */
    public Workload withProducerRate(double v) {
        Workload w = new Workload(name, topics, partitionsPerTopic, messageSize, producersPerTopic, v, warmupDurationSeconds, testDurationSeconds, threadsPerAgent, sendMode).extras(this);
        w.maxRateSearch = false;
        return w.dropNote("producerRate");
    }

    public Workload withWarmupDurationSeconds(int v) {
        return new Workload(name, topics, partitionsPerTopic, messageSize, producersPerTopic, producerRate, v, testDurationSeconds, threadsPerAgent, sendMode).extras(this)
            .dropNote("warmupDurationMinutes");
    }

    public Workload withTestDurationSeconds(int v) {
        return new Workload(name, topics, partitionsPerTopic, messageSize, producersPerTopic, producerRate, warmupDurationSeconds, v, threadsPerAgent, sendMode).extras(this)
            .dropNote("testDurationMinutes");
    }

    public Workload withThreadsPerAgent(int v) {
        return new Workload(name, topics, partitionsPerTopic, messageSize, producersPerTopic, producerRate, warmupDurationSeconds, testDurationSeconds, v, sendMode).extras(this);
    }

    public Workload withSendMode(SendMode v) {
        return new Workload(name, topics, partitionsPerTopic, messageSize, producersPerTopic, producerRate, warmupDurationSeconds, testDurationSeconds, threadsPerAgent, v).extras(this);
    }

    @Override
    public String toString() {
        return name + ": " + topics + " topic(s) x " + partitionsPerTopic + " queues, " + messageSize + " B, "
            + producersPerTopic + " producer(s)/topic, " + threadsPerAgent + " threads/agent, " + sendMode.label()
            + ", rate " + (maxRateSearch ? "searched (OMB producerRate 0)" : producerRate == 0 ? "unlimited" : producerRate + " msg/s") + ", warm-up "
            + warmupDurationSeconds + " s, test " + testDurationSeconds + " s, client " + client.label()
            + (messageTags == null ? "" : ", tags " + messageTags) + (messageKeys == null ? "" : ", keys " + messageKeys)
            + (keyDistributor == KeyDistributor.NO_KEY ? "" : ", keys " + keyDistributor)
            + (payload == Payload.RANDOM_BODY ? "" : ", " + payload)
            + (hasConsumers() ? ", " + subscriptionsPerTopic + " subscription(s)/topic x " + consumerPerSubscription + " consumer(s)"
                + (consumerBacklogSizeGB > 0 ? ", backlog " + consumerBacklogSizeGB + " GB"
                    + (backlogDrainRatio < 1 ? " (drained at " + backlogDrainRatio + ")" : "") : "") : "");
    }
}
