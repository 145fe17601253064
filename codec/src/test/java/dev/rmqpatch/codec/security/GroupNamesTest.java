package dev.rmqpatch.codec.security;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Random;

import dev.rmqpatch.codec.Seeds;
import org.apache.rocketmq.client.Validators;
import org.apache.rocketmq.client.exception.MQClientException;
import org.junit.jupiter.api.Test;

/** S9 allows exactly the group names the 4.9.0 client's own check allows. */
class GroupNamesTest {

    @Test
    void sameRuleAsTheStockClient() {
        long seed = Seeds.seed();
        Random r = new Random(seed);
        String alphabet = "abcXYZ019%|_-./\\ :*@\u00e9\u4e00";
        for (int n = 0; n < 20_000; n++) {
            StringBuilder sb = new StringBuilder();
            int len = r.nextInt(10) == 0 ? 250 + r.nextInt(10) : r.nextInt(12);
            for (int i = 0; i < len; i++) {
                sb.append(r.nextInt(4) == 0 ? alphabet.charAt(r.nextInt(alphabet.length())) : 'g');
            }
            String group = sb.toString();
            boolean clientAccepts;
            try {
                Validators.checkGroup(group);
                clientAccepts = true;
            } catch (MQClientException e) {
                clientAccepts = false;
            }
            assertEquals(clientAccepts, GroupNames.legal(group), Seeds.replay(seed, n) + " [" + group + "]");
        }
    }

    @Test
    void traversalIsRefusedAndOrdinaryGroupsPass() {
        assertTrue(GroupNames.refuseIllegalGroup(null, "x/../../elsewhere"));
        assertTrue(GroupNames.refuseIllegalGroup(null, null));
        assertFalse(GroupNames.refuseIllegalGroup(null, "CID_order-events_1"));
        assertFalse(GroupNames.refuseIllegalGroup(null, "%RETRY%group"));
    }
}
