package dev.rmqpatch.bench.failover;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import org.apache.rocketmq.client.producer.DefaultMQProducer;
import org.apache.rocketmq.client.producer.SendResult;
import org.apache.rocketmq.client.producer.SendStatus;
import org.apache.rocketmq.common.message.Message;

/**
 * The load of one run: N stock 4.9.0 {@link DefaultMQProducer}s, each its own client instance (its own connections)
 * and one thread of sync sends, together at a fixed total rate: thread i sends at its own times, N/rate seconds apart;
 * a thread whose send returned late sends at once until it is back on time, and leaves out what is over a second
 * behind (counted). Every send is recorded ({@link SendRecord}, the brokers from {@link AttemptHook}), and the keys
 * of the acknowledged ones kept for the read-back.
 */
final class ProducerLoad implements AutoCloseable {
    /** Sends a thread may be behind its schedule before it leaves the rest of that second out. */
    private static final long MAX_BEHIND_NANOS = TimeUnit.SECONDS.toNanos(1);

    private final List<DefaultMQProducer> producers = new ArrayList<>();
    private final List<Thread> threads = new ArrayList<>();
    private final List<List<SendRecord>> records = new ArrayList<>();
    private final List<Set<String>> acked = new ArrayList<>();
    private final AttemptHook hook = new AttemptHook();
    private final AtomicLong sent = new AtomicLong();
    private final AtomicLong failed = new AtomicLong();
    private final AtomicLong skipped = new AtomicLong();
    private final AtomicLong toStalled = new AtomicLong();
    private volatile boolean stop;
    private final String topic;
    private final byte[] body;

    /** What a producer is told; the send timeout and retries are the stock client's settings of the same names. */
    record Settings(int producers, double rate, int size, int sendTimeoutMillis, int retries, LatencyFault fault) {
    }

    ProducerLoad(String namesrv, String topic, String instance, Settings s) throws Exception {
        this.topic = topic;
        this.body = new byte[s.size()];
        for (int i = 0; i < s.producers(); i++) {
            DefaultMQProducer p = new DefaultMQProducer("failover-producer-" + i);
            p.setNamesrvAddr(namesrv);
            p.setInstanceName(instance + "-p" + i);
            p.setSendMsgTimeout(s.sendTimeoutMillis());
            p.setRetryTimesWhenSendFailed(s.retries());
            p.setSendLatencyFaultEnable(s.fault().enabled());
            p.getDefaultMQProducerImpl().registerSendMessageHook(hook);
            p.start();
            producers.add(p);
        }
    }

    /** The producers' route to the topic lists every one of {@code brokers} (polls the name server up to {@code millis}). */
    void awaitRoute(Set<String> brokers, long millis) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(millis);
        Set<String> seen = Set.of();
        while (System.nanoTime() < deadline) {
            Set<String> now = new HashSet<>();
            try {
                producers.get(0).fetchPublishMessageQueues(topic).forEach(q -> now.add(q.getBrokerName()));
            } catch (Exception e) {
                // Not registered yet.
            }
            seen = now;
            if (now.containsAll(brokers)) {
                return;
            }
            Thread.sleep(200);
        }
        throw new IllegalStateException("the name server's route of " + topic + " lists " + seen + ", not all of " + brokers);
    }

    /** Starts the sending threads; {@code keyPrefix} makes every message's key unique in the run. */
    void start(Settings s, String keyPrefix, String stalledBroker) {
        long origin = System.nanoTime();
        long interval = Math.max(1, Math.round(s.producers() * 1e9 / s.rate()));
        for (int i = 0; i < producers.size(); i++) {
            DefaultMQProducer p = producers.get(i);
            // Synchronized: a thread still blocked in a send after stop() may add while the results are read.
            List<SendRecord> mine = Collections.synchronizedList(new ArrayList<>());
            Set<String> ok = Collections.synchronizedSet(new HashSet<>());
            records.add(mine);
            acked.add(ok);
            String prefix = keyPrefix + "-p" + i + "-";
            long first = origin + Math.round(i * 1e9 / s.rate());
            Thread t = new Thread(() -> sendLoop(p, prefix, first, interval, mine, ok, stalledBroker), "failover-send-" + i);
            t.setDaemon(true);
            threads.add(t);
        }
        threads.forEach(Thread::start);
    }

    private void sendLoop(DefaultMQProducer p, String prefix, long first, long interval, List<SendRecord> out, Set<String> ok,
                          String stalledBroker) {
        long due = first;
        for (long n = 0; !stop; n++) {
            long now = System.nanoTime();
            if (due - now > 0) {
                LockSupport.parkNanos(due - now);
                if (stop) {
                    break;
                }
            } else if (now - due > MAX_BEHIND_NANOS) {
                long behind = (now - due) / interval;
                skipped.addAndGet(behind);
                due += behind * interval;
            }
            due += interval;
            String key = prefix + n;
            Message m = new Message(topic, "failover", key, body);
            hook.begin();
            long startMillis = System.currentTimeMillis();
            long t0 = System.nanoTime();
            SendOutcome outcome;
            String detail = null;
            String resultBroker = null;
            try {
                SendResult r = p.send(m);
                resultBroker = r.getMessageQueue() == null ? null : r.getMessageQueue().getBrokerName();
                outcome = r.getSendStatus() == SendStatus.SEND_OK ? SendOutcome.SEND_OK : SendOutcome.OTHER_STATUS;
                if (outcome == SendOutcome.SEND_OK) {
                    ok.add(key);
                } else {
                    detail = r.getSendStatus().name();
                }
            } catch (Exception e) {
                outcome = SendOutcome.of(e);
                detail = SendOutcome.detail(e);
            }
            long micros = (System.nanoTime() - t0) / 1000;
            List<String> attempts = hook.attempts();
            String firstBroker = attempts.isEmpty() ? null : attempts.get(0);
            String lastBroker = resultBroker != null ? resultBroker : attempts.isEmpty() ? null : attempts.get(attempts.size() - 1);
            out.add(new SendRecord(startMillis, micros, firstBroker, lastBroker, attempts.size(), outcome, detail));
            sent.incrementAndGet();
            if (outcome != SendOutcome.SEND_OK) {
                failed.incrementAndGet();
            }
            if (stalledBroker.equals(firstBroker)) {
                toStalled.incrementAndGet();
            }
        }
    }

    /** A progress line's figures since the last call: sends, failed, share to the stalled broker. */
    String progress(long[] last) {
        long s = sent.get();
        long f = failed.get();
        long a = toStalled.get();
        long ds = s - last[0];
        long df = f - last[1];
        long da = a - last[2];
        last[0] = s;
        last[1] = f;
        last[2] = a;
        return String.format(Locale.ROOT, "%,d sends (%,d failed), %.0f%% to the stalled broker", ds, df, ds == 0 ? 0.0 : 100.0 * da / ds);
    }

    /** Stops the threads (each finishes its send in flight) and waits up to {@code millis} for them. */
    void stop(long millis) throws InterruptedException {
        stop = true;
        long deadline = System.currentTimeMillis() + millis;
        for (Thread t : threads) {
            t.join(Math.max(1, deadline - System.currentTimeMillis()));
        }
    }

    /** Every send recorded (after {@link #stop}). */
    List<SendRecord> records() {
        List<SendRecord> all = new ArrayList<>();
        for (List<SendRecord> l : records) {
            synchronized (l) {
                all.addAll(l);
            }
        }
        all.sort((x, y) -> Long.compare(x.startMillis(), y.startMillis()));
        return all;
    }

    /** Keys of the SEND_OK sends (after {@link #stop}). */
    Set<String> ackedKeys() {
        Set<String> all = new HashSet<>();
        for (Set<String> s : acked) {
            synchronized (s) {
                all.addAll(s);
            }
        }
        return Collections.unmodifiableSet(all);
    }

    long skippedSlots() {
        return skipped.get();
    }

    @Override
    public void close() {
        stop = true;
        producers.forEach(DefaultMQProducer::shutdown);
    }
}
