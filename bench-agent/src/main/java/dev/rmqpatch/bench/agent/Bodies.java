package dev.rmqpatch.bench.agent;

import dev.rmqpatch.bench.lang.Jdk8;
import dev.rmqpatch.bench.protocol.PrepareRequest;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Random;
import java.util.concurrent.ThreadLocalRandom;

/**
 * The message bodies an agent sends, as the workload's payload fields describe them: the payload file's bytes, OMB's pool
 * of randomized payloads (each {@code randomBytesRatio} random bytes, then zeros: compressible in a known proportion), or
 * one random body of messageSize bytes. Immutable and shared by the sender threads.
 */
final class Bodies {
    private final List<byte[]> pool;

    private Bodies(List<byte[]> pool) {
        this.pool = pool;
    }

    static Bodies of(PrepareRequest r) throws PrepareException {
        List<byte[]> pool = new ArrayList<>();
        if (r.randomizedPayloadPoolSize > 0) {
            if (!(r.randomBytesRatio >= 0 && r.randomBytesRatio <= 1)) {
                throw new PrepareException("randomBytesRatio must be between 0 and 1, not " + r.randomBytesRatio, null);
            }
            // OMB's recipe: (int) (messageSize * ratio) random bytes, the rest zeros. Seeded per agent, so reruns repeat.
            Random random = new Random(31L * r.messageSize + r.agentIndex);
            int randomBytes = (int) (r.messageSize * r.randomBytesRatio);
            for (int i = 0; i < r.randomizedPayloadPoolSize; i++) {
                byte[] body = new byte[r.messageSize];
                byte[] head = new byte[randomBytes];
                random.nextBytes(head);
                System.arraycopy(head, 0, body, 0, randomBytes);
                pool.add(body);
            }
        } else if (r.payloadBase64 != null) {
            byte[] body;
            try {
                body = Base64.getDecoder().decode(r.payloadBase64);
            } catch (IllegalArgumentException e) {
                throw new PrepareException("payload is not valid base64: " + e.getMessage(), null);
            }
            if (body.length != r.messageSize) {
                throw new PrepareException("payload has " + body.length + " bytes, messageSize is " + r.messageSize, null);
            }
            pool.add(body);
        } else {
            byte[] body = new byte[r.messageSize];
            // Random bytes: the body neither compresses nor repeats; seeded so runs send the same bytes.
            new Random(r.messageSize).nextBytes(body);
            pool.add(body);
        }
        return new Bodies(Jdk8.copyOf(pool));
    }

    int size() {
        return pool.size();
    }

    /** The only body, for senders that encode it once (the wire client). */
    byte[] single() {
        if (pool.size() != 1) {
            throw new IllegalStateException(pool.size() + " bodies, not one");
        }
        return pool.get(0);
    }

    /** One body for the next message: picked at random from the pool as OMB's workers do; never to be modified. */
    byte[] next() {
        return pool.get(nextIndex());
    }

    /** The pool index of the next message's body, picked as {@link #next()} picks it. */
    int nextIndex() {
        return pool.size() == 1 ? 0 : ThreadLocalRandom.current().nextInt(pool.size());
    }

    /** The whole pool, in index order (the wire client encodes each body once); never to be modified. */
    List<byte[]> all() {
        return pool;
    }
}
