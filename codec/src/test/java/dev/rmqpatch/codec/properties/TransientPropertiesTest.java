package dev.rmqpatch.codec.properties;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.apache.rocketmq.common.message.MessageConst;
import org.junit.jupiter.api.Test;

class TransientPropertiesTest {

    @Test
    void waitIsStocksWaitStoreMsgOk() {
        assertEquals(MessageConst.PROPERTY_WAIT_STORE_MSG_OK, TransientProperties.WAIT);
    }

    @Test
    void parseAlwaysStartsWithWait() {
        assertArrayEquals(new String[] {"WAIT"}, TransientProperties.parse(""));
        assertArrayEquals(new String[] {"WAIT"}, TransientProperties.parse(" , ,,"));
        assertArrayEquals(new String[] {"WAIT"}, TransientProperties.parse("WAIT"));
    }

    @Test
    void parseTrimsAndDeduplicatesInOrder() {
        assertArrayEquals(new String[] {"WAIT", "TRACE_ON", "MSG_REGION"},
            TransientProperties.parse(" TRACE_ON ,MSG_REGION,, WAIT,TRACE_ON"));
        assertArrayEquals(new String[] {"WAIT", "a b"}, TransientProperties.parse("a b"),
            "only the ends are trimmed");
    }

    @Test
    void waitIsAlwaysTransientAndOthersAreNot() {
        assertTrue(TransientProperties.isTransient("WAIT"));
        assertFalse(TransientProperties.isTransient("wait"));
        assertFalse(TransientProperties.isTransient(""));
        assertFalse(TransientProperties.isTransient(null));
        assertFalse(TransientProperties.isTransient(MessageConst.PROPERTY_KEYS));
        assertEquals("WAIT", TransientProperties.keys()[0]);
    }

    @Test
    void keysReturnsACopy() {
        String[] keys = TransientProperties.keys();
        assertNotSame(keys, TransientProperties.keys());
        keys[0] = "changed";
        assertTrue(TransientProperties.isTransient("WAIT"));
        assertFalse(TransientProperties.isTransient("changed"));
    }
}
