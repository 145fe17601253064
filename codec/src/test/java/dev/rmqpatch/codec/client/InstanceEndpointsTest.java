package dev.rmqpatch.codec.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import dev.rmqpatch.codec.Seeds;
import org.apache.rocketmq.common.utils.NameServerAddressUtils;
import org.junit.jupiter.api.Test;

/** P35: the remembered answer is stock's for every address, repeated, changed, or raced by other threads. */
class InstanceEndpointsTest {

    private static final String[] SHAPES = {
        "127.0.0.1:9876", "10.0.0.1:9876;10.0.0.2:9876", "MQ_INST_123_abc.mq.example.com:80",
        "http://MQ_INST_123_abc.mq.example.com:80", "https://MQ_INST_1_b.x", "MQ_INST_123.example.com",
        "MQ_INST__abc.example.com", "xMQ_INST_1_b.x", "MQ_INST_1_b", "", " MQ_INST_1_b.x",
    };

    /** A new String each time, equal or not to earlier ones, so equal addresses are not always the same object. */
    private static String address(Random r) {
        String s = SHAPES[r.nextInt(SHAPES.length)];
        if (r.nextInt(4) == 0 && !s.isEmpty()) {
            char[] c = s.toCharArray();
            c[r.nextInt(c.length)] = "._:/aZ9 \u00e9".charAt(r.nextInt(9));
            s = new String(c);
        }
        return new String(s.toCharArray());
    }

    @Test
    void sameAnswerAsStockForRepeatedAndChangedAddresses() {
        long seed = Seeds.seed();
        Random r = new Random(seed);
        String previous = SHAPES[0];
        for (int n = 0; n < 20_000; n++) {
            // Mostly the address of the call before (the common case), sometimes an equal copy or another one.
            int k = r.nextInt(10);
            String a = k < 6 ? previous : k < 8 ? new String(previous.toCharArray()) : address(r);
            assertEquals(NameServerAddressUtils.validateInstanceEndpoint(a), InstanceEndpoints.validateInstanceEndpoint(a),
                Seeds.replay(seed, n) + " [" + a + "]");
            previous = a;
        }
    }

    @Test
    void racingThreadsGetStockAnswers() throws Exception {
        String instance = "http://MQ_INST_7_x.example.com:80";
        String plain = "127.0.0.1:9876";
        ExecutorService pool = Executors.newFixedThreadPool(4);
        try {
            List<Future<Integer>> results = new ArrayList<>();
            for (int t = 0; t < 4; t++) {
                final int id = t;
                results.add(pool.submit(() -> {
                    int wrong = 0;
                    for (int i = 0; i < 50_000; i++) {
                        boolean inst = (i + id) % 3 == 0;
                        if (InstanceEndpoints.validateInstanceEndpoint(inst ? instance : plain) != inst) {
                            wrong++;
                        }
                    }
                    return wrong;
                }));
            }
            for (Future<Integer> f : results) {
                assertEquals(0, (int) f.get(60, TimeUnit.SECONDS));
            }
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void edgesAsStock() {
        assertTrue(InstanceEndpoints.validateInstanceEndpoint("MQ_INST_1_b.x"));
        assertFalse(InstanceEndpoints.validateInstanceEndpoint("MQ_INST_1_b"));
        assertFalse(InstanceEndpoints.validateInstanceEndpoint(""));
        assertThrows(NullPointerException.class, () -> InstanceEndpoints.validateInstanceEndpoint(null));
        assertThrows(NullPointerException.class, () -> NameServerAddressUtils.validateInstanceEndpoint(null));
    }
}
