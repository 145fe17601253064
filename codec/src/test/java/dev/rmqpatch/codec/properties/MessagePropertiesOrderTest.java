package dev.rmqpatch.codec.properties;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Map;
import java.util.Random;

import org.apache.rocketmq.common.message.MessageDecoder;
import org.junit.jupiter.api.Test;

/**
 * The map the codec's parsers return iterates as stock 4.9.0's does, and keeps doing so as the broker adds to it. That
 * order reaches the store: 4.9.0's send path parses the request's properties, puts CLUSTER (and the retry and
 * transaction paths more) into the map and writes the map back as the stored string, so a map of another table size
 * than stock's would store (and serve) the same properties in another order than a stock broker.
 */
class MessagePropertiesOrderTest {

    private static final String[] KNOWN = {"KEYS", "TAGS", "WAIT", "DELAY", "UNIQ_KEY", "TRAN_MSG", "PGROUP",
        "MAX_OFFSET", "MIN_OFFSET", "REAL_TOPIC", "REAL_QID", "RETRY_TOPIC", "__STARTDELIVERTIME", "INSTANCE_ID"};

    @Test
    void parsedMapsIterateAsStocksBeforeAndAfterTheBrokerAddsToThem() {
        Random r = new Random(20261129L);
        for (int i = 0; i < 5_000; i++) {
            int n = 1 + r.nextInt(i % 10 == 0 ? 60 : 14);
            StringBuilder sb = new StringBuilder();
            for (int k = 0; k < n; k++) {
                String name = r.nextInt(3) == 0 ? KNOWN[r.nextInt(KNOWN.length)] : "k" + Integer.toString(r.nextInt(1 << 20), 36);
                sb.append(name).append('\u0001').append("v").append(r.nextInt(1000)).append('\u0002');
            }
            String s = sb.toString();
            Map<String, String> stock = MessageDecoder.string2messageProperties(s);
            Map<String, String> codec = MessageProperties.decode(s);
            byte[] ascii = s.getBytes(StandardCharsets.ISO_8859_1);
            Map<String, String> codecAscii = MessageProperties.decodeAscii(ascii, 0, ascii.length);
            assertEquals(new ArrayList<>(stock.keySet()), new ArrayList<>(codec.keySet()), s);
            assertEquals(new ArrayList<>(stock.keySet()), new ArrayList<>(codecAscii.keySet()), s);
            // What the broker does next: CLUSTER in, sometimes more, then the map written back as the stored string.
            int more = r.nextInt(4) == 0 ? 1 + r.nextInt(20) : 0;
            for (Map<String, String> m : java.util.List.of(stock, codec, codecAscii)) {
                m.put("CLUSTER", "DefaultCluster");
                for (int k = 0; k < more; k++) {
                    m.put("extra" + k, "x");
                }
            }
            String stored = MessageDecoder.messageProperties2String(stock);
            assertEquals(stored, MessageProperties.encode(codec), s);
            assertEquals(stored, MessageProperties.encode(codecAscii), s);
        }
    }
}
