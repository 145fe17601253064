package dev.rmqpatch.bench.coordinator;

import dev.rmqpatch.bench.broker.BrokerAdmin;
import java.io.PrintStream;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/** Creates a run's topics, partitionsPerTopic queues each, on every master broker registered at the run's name server. */
final class TopicSetup {
    /** How often a long creation says how far it got. */
    private static final long REPORT_EVERY_NANOS = TimeUnit.SECONDS.toNanos(10);

    private TopicSetup() {
    }

    static void create(BrokerAdmin admin, RunSpec spec, PrintStream out) throws BrokerAdmin.AdminException, Coordinator.Abort {
        Map<String, String> masters = admin.masterBrokers(spec.namesrv);
        if (masters.isEmpty()) {
            throw new Coordinator.Abort("no broker is registered at name server " + spec.namesrv);
        }
        List<String> topics = spec.topics();
        long began = System.nanoTime();
        long lastReport = began;
        for (int i = 0; i < topics.size(); i++) {
            for (String broker : masters.values()) {
                admin.createTopic(broker, topics.get(i), spec.workload.partitionsPerTopic());
            }
            // RocketMQ 4.9 creates topics one request at a time and rewrites its topics.json on each: many topics take
            // a while, so say how far it got every 10 s instead of looking hung.
            long now = System.nanoTime();
            if (now - lastReport >= REPORT_EVERY_NANOS && i + 1 < topics.size()) {
                out.printf("[%s] created %,d of %,d topics on %d master(s) (%d s)%n", spec.label, i + 1, topics.size(), masters.size(),
                    TimeUnit.NANOSECONDS.toSeconds(now - began));
                lastReport = now;
            }
        }
        if (topics.size() >= 100) {
            out.printf("[%s] created %,d topics x %,d queues on %d master(s) in %.1f s%n", spec.label, topics.size(),
                spec.workload.partitionsPerTopic(), masters.size(), (System.nanoTime() - began) / 1e9);
        }
    }
}
