package dev.rmqpatch.bench.coordinator;

import dev.rmqpatch.bench.protocol.PrepareRequest;
import dev.rmqpatch.bench.workload.KeyDistributor;
import dev.rmqpatch.bench.workload.Workload;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Base64;

/**
 * Turns a workload into the agents' prepare requests: the part every run shares (the workload's shape, its keys and its
 * bodies as OMB makes them: key distributor, payload file, randomized pool), used by {@code bench run} and by
 * {@code compare --efficiency}, and a {@code bench run} agent's full request on top of it.
 */
public final class PrepareRequests {
    private PrepareRequests() {
    }

    /**
     * The workload's payload file (OMB's payloadFile, messageSize bytes, found next to the workload file or under
     * {@code payloadDir}) as base64, to ship to agents that may run on hosts without it; null when the workload has none.
     *
     * @throws IOException the file cannot be read
     * @throws IllegalArgumentException the file is not messageSize bytes
     */
    public static String payloadBase64(Workload w, Path payloadDir) throws IOException {
        return w.payload().isFile() ? Base64.getEncoder().encodeToString(w.payload().readFile(w.messageSize(), payloadDir)) : null;
    }

    /**
     * The part of a prepare request that follows from the workload alone: run id, queues per topic, message size,
     * producers per topic, threads, send mode, client, tags, keys, key distributor and bodies ({@code payloadBase64} from
     * {@link #payloadBase64}, or the randomized pool). Where to send, the rate, timeouts and consumers are the caller's.
     */
    public static PrepareRequest forWorkload(Workload w, String runId, String payloadBase64) {
        PrepareRequest r = new PrepareRequest();
        r.runId = runId;
        r.partitionsPerTopic = w.partitionsPerTopic();
        r.messageSize = w.messageSize();
        r.producersPerTopic = w.producersPerTopic();
        r.threads = w.threadsPerAgent();
        r.mode = w.sendMode().label();
        r.client = w.client().label();
        r.tags = w.messageTags();
        r.keys = w.messageKeys();
        r.keyDistributor = w.keyDistributor() == KeyDistributor.NO_KEY ? null : w.keyDistributor().name();
        r.payloadBase64 = payloadBase64;
        if (w.payload().isRandomized()) {
            r.randomizedPayloadPoolSize = w.payload().poolSize();
            r.randomBytesRatio = w.payload().randomBytesRatio();
        }
        return r;
    }

    /**
     * One agent's request in a {@code bench run}: the workload's part, then the run's name server and topics, this agent's
     * place, share of the rate (the search's start rate when producerRate 0 asks for OMB's search), clock offset and
     * subscriptions, and the run's timeouts.
     *
     * @param clockOffsetMicros the agent's clock minus the coordinator's (0 when not measured)
     */
    static PrepareRequest forAgent(RunSpec spec, String payloadBase64, int agentIndex, int agentCount, SubscriptionPlan plan,
                                   long clockOffsetMicros) {
        Workload w = spec.workload;
        PrepareRequest r = forWorkload(w, spec.runId, payloadBase64);
        r.agentIndex = agentIndex;
        r.stampBodies = w.hasConsumers();
        r.clockOffsetMicros = clockOffsetMicros;
        r.subscriptions = plan.consumes(agentIndex) ? plan.of(agentIndex) : null;
        r.namesrv = spec.namesrv;
        r.topics = spec.topics();
        r.ratePerSecond = (w.maxRateSearch() ? RateSearch.START_RATE : w.producerRate()) / agentCount;
        r.sendTimeoutMs = spec.sendTimeoutMs;
        r.maxOutstanding = spec.maxOutstanding;
        r.routeWaitMs = spec.routeWaitMs;
        r.ioThreads = spec.ioThreads;
        return r;
    }
}
