package dev.rmqpatch.bench.command;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.rmqpatch.bench.cli.UsageException;
import dev.rmqpatch.bench.engine.ClientVariant;
import dev.rmqpatch.bench.engine.RunOptions;
import dev.rmqpatch.bench.engine.Variant;
import java.util.List;
import org.junit.jupiter.api.Test;

/** compare --efficiency --clients: what it reads, its defaults, and a clear error for every wrong combination. */
class CompareClientsOptionsTest {

    private static String error(String... args) {
        return assertThrows(UsageException.class, () -> CompareCommand.parse(args)).getMessage();
    }

    @Test
    void clientsRunAgainstOneTunedBrokerWithStockAsTheBaseline() throws Exception {
        RunOptions o = CompareCommand.parse(new String[] {"--efficiency", "--clients", "stock,patched,agent-without-P7"});
        assertEquals(List.of("stock", "patched", "agent-without-P7"), o.compared());
        assertEquals(List.of("4.9.0-tuned"), o.variants.stream().map(Variant::name).toList(), "one broker cluster");
        assertEquals("stock", o.baseline);
        assertEquals(ClientVariant.Side.PRODUCER, o.clientSide);
        assertTrue(!o.workload.hasConsumers(), "the producer side has no consumers");
        assertEquals(List.of("P7"), o.clients.get(2).disabledPatches());
        assertEquals(30, o.workload.warmupDurationSeconds(), "a client's JVM compiles in its own windows only");
        assertEquals(5, CompareCommand.parse(new String[] {"--efficiency", "--clients", "stock,patched", "--warmup", "5"})
            .workload.warmupDurationSeconds());
    }

    @Test
    void theBrokerTheBaselineAndTheConsumerSideCanBeChosen() throws Exception {
        RunOptions o = CompareCommand.parse(new String[] {"--efficiency", "--clients", "patched,stock", "--variants", "4.9.0-patched",
            "--client-side", "consumer", "--baseline", "patched"});
        assertEquals(List.of("4.9.0-patched"), o.variants.stream().map(Variant::name).toList());
        assertEquals("patched", o.baseline);
        assertEquals(ClientVariant.Side.CONSUMER, o.clientSide);
        assertTrue(o.workload.hasConsumers(), "one consumer per client when --consumers is not given");
        assertEquals(1, o.workload.consumerPerSubscription());
        RunOptions three = CompareCommand.parse(new String[] {"--efficiency", "--clients", "stock,patched", "--client-side", "consumer",
            "--consumers", "3"});
        assertEquals(3, three.workload.consumerPerSubscription());
        assertEquals("stock", CompareCommand.parse(new String[] {"--efficiency", "--clients", "patched,stock"}).baseline,
            "stock is the baseline wherever it is in the list");
        assertEquals("patched", CompareCommand.parse(new String[] {"--efficiency", "--clients", "patched,agent"}).baseline,
            "else the first");
    }

    @Test
    void brokerComparisonsHaveNoClients() throws Exception {
        RunOptions o = CompareCommand.parse(new String[] {"--efficiency"});
        assertNull(o.clients);
        assertEquals(List.of("4.9.0-tuned", "4.9.0-patched"), o.compared());
    }

    @Test
    void wrongCombinationsAreRefusedWithTheReason() {
        assertTrue(error("--efficiency", "--clients", "stock,patched", "--variants", "4.9.0-tuned,4.9.0-patched")
            .contains("give one variant in --variants"));
        assertTrue(error("--efficiency", "--clients", "stock").contains("at least two"));
        assertTrue(error("--efficiency", "--clients", "stock,stock").contains("given twice"));
        assertTrue(error("--efficiency", "--clients", "stock,fast").contains("client 'fast' is not stock, patched, agent"));
        assertTrue(error("--efficiency", "--clients", "stock,stock-without-P7").contains("no patches to switch off"));
        assertTrue(error("--efficiency", "--clients", "stock,wire-without-P7").contains("the wire client has no patches to switch off"));
        assertTrue(error("--efficiency", "--clients", "stock,wire", "--client-side", "consumer").contains("client wire has producers only"));
        assertTrue(error("--efficiency", "--client-side", "consumer").contains("--client-side applies to --clients only"));
        assertTrue(error("--efficiency", "--clients", "stock,patched", "--client-side", "both").contains("producer or consumer"));
        assertTrue(error("--efficiency", "--clients", "stock,patched", "--consumers", "2").contains("--client-side consumer"));
        assertTrue(error("--efficiency", "--clients", "stock,patched", "--client", "wire").contains("RocketMQ clients"));
        assertTrue(error("--efficiency", "--clients", "stock,patched", "--baseline", "4.9.0-tuned").contains("not one of the clients"));
        assertTrue(error("--clients", "stock,patched").contains("--clients applies to --efficiency only"));
    }

    @Test
    void theHelpDescribesTheNewFlags() {
        String help = CompareCommand.helpText();
        assertTrue(help.contains("--clients LIST") && help.contains("--client-side producer|consumer"), help);
    }
}
