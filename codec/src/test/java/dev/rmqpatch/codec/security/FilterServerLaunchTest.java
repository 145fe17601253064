package dev.rmqpatch.codec.security;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;

import org.apache.rocketmq.logging.InternalLoggerFactory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class FilterServerLaunchTest {

    @TempDir
    Path tmp;

    @Test
    void runsNothing() throws Exception {
        Path marker = tmp.resolve("marker");
        String exploit = "sh -c $@|sh . echo touch " + marker + ";/bin/startfsrv.sh -c broker.conf";
        for (int i = 0; i < 3; i++) {
            FilterServerLaunch.refuse(exploit, InternalLoggerFactory.getLogger("RocketmqBroker"));
        }
        Thread.sleep(300);
        assertFalse(Files.exists(marker), "the refused command ran");
    }

    @Test
    void logsTheCommandWithoutControlCharactersOrUnboundedLength() {
        assertEquals("sh a\\u000ab\\u001b[31m", FilterServerLaunch.printable("sh a\nb\u001b[31m"));
        String longOne = FilterServerLaunch.printable("x".repeat(5000));
        assertTrue(longOne.length() <= 303 && longOne.endsWith("..."), longOne.length() + "");
        assertEquals("null", FilterServerLaunch.printable(null));
    }
}
