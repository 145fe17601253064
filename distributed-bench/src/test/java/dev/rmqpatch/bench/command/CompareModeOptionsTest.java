package dev.rmqpatch.bench.command;

import dev.rmqpatch.bench.engine.RunOptions;
import dev.rmqpatch.bench.engine.Variant;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.rmqpatch.bench.cli.UsageException;
import dev.rmqpatch.bench.pinning.PinMode;
import dev.rmqpatch.bench.pinning.Placement;
import java.util.List;
import org.junit.jupiter.api.Test;

/** --efficiency, --profile and their options: defaults, and a clear error for every wrong combination. */
class CompareModeOptionsTest {

    private static String error(String... args) {
        return assertThrows(UsageException.class, () -> CompareCommand.parse(args)).getMessage();
    }

    @Test
    void efficiencyDefaults() throws Exception {
        RunOptions o = CompareCommand.parse(new String[] {"--efficiency"});
        assertTrue(o.efficiency);
        assertFalse(o.profile);
        assertEquals(List.of("4.9.0-tuned", "4.9.0-patched"), o.variants.stream().map(Variant::name).toList());
        assertEquals("4.9.0-tuned", o.baseline);
        assertNull(o.rate, "found by the probe");
        assertEquals(5, o.windowSeconds);
        assertEquals(10, o.pairs, "per cell");
        assertEquals(PinMode.BOTH, o.pin, "pinned and unpinned, always both");
        assertEquals(List.of(25.0, 50.0, 75.0), o.ratePercents, "the rate curve");
        assertFalse(o.freezeIdle, "idle variants run on unless asked");
        assertEquals(15, o.workload.warmupDurationSeconds());
        assertEquals(0.0, o.workload.producerRate(), "the agents get the rate with every switch");
    }

    @Test
    void efficiencyOptionsAreRead() throws Exception {
        RunOptions o = CompareCommand.parse(new String[] {"--efficiency", "--rate", "8000", "--window=4", "--pairs", "40", "--pin", "off",
            "--profile", "--variants", "4.9.0-tuned,4.9.0-patched,4.9.1", "--topology", "ms-sync", "--warmup", "20"});
        assertEquals(8000.0, o.rate);
        assertEquals(4, o.windowSeconds);
        assertEquals(40, o.pairs);
        assertEquals(PinMode.OFF, o.pin);
        assertEquals(List.of(Placement.SPLIT, Placement.UNPINNED), CompareCommand.parse(new String[] {"--efficiency", "--pin", "split,off"}).pin
            .placements());
        assertEquals(PinMode.ALL, CompareCommand.parse(new String[] {"--efficiency", "--pin=all"}).pin);
        assertTrue(o.profile);
        assertEquals(3, o.variants.size());
        assertEquals(20, o.workload.warmupDurationSeconds());
        assertTrue(CompareCommand.parse(new String[] {"--efficiency", "--freeze-idle", "--topology", "ms-sync"}).freezeIdle);
        assertEquals(6, CompareCommand.parse(new String[] {"--efficiency", "--freeze-idle", "--window", "6"}).windowSeconds, "the longest allowed");
    }

    @Test
    void saturationModeIsUnchangedAndCanBeProfiled() throws Exception {
        RunOptions o = CompareCommand.parse(new String[] {"--profile", "--rate", "9000"});
        assertFalse(o.efficiency);
        assertTrue(o.profile);
        assertEquals(9000.0, o.workload.producerRate());
        assertEquals(3, o.variants.size());
        assertEquals(12, o.workload.warmupDurationSeconds());
    }

    @Test
    void wrongCombinationsSayWhatIsWrong() {
        assertEquals("--rate must be a positive number of msg/s with --efficiency (leave it out to let the rate probe find one), not 0",
            error("--efficiency", "--rate", "0"));
        assertEquals("--rate needs a number, not 'fast'", error("--efficiency", "--rate", "fast"));
        assertTrue(error("--efficiency", "--rate", "-5").startsWith("--rate must be a number of at least 0"));
        assertTrue(error("--efficiency", "--rounds", "3").startsWith("--rounds does not apply to --efficiency"));
        assertTrue(error("--efficiency", "--duration", "3").startsWith("--duration does not apply to --efficiency"));
        assertTrue(error("--efficiency", "--no-sink").startsWith("--no-sink does not apply to --efficiency"));
        assertEquals("--window applies to --efficiency only", error("--window", "3"));
        assertEquals("--pairs applies to --efficiency only", error("--pairs", "3"));
        assertEquals("--pin applies to --efficiency only", error("--pin", "on"));
        assertEquals("--pin must be both, all, auto, on, off, split or a comma list of on, off and split (e.g. split,off), not 'always'",
            error("--efficiency", "--pin", "always"));
        assertEquals("--pin names split twice in 'split,split'", error("--efficiency", "--pin", "split,split"));
        assertEquals("--rates: each percentage must be above 0 and at most 100, not 120", error("--efficiency", "--rates", "50,120"));
        assertTrue(error("--efficiency", "--rates", "25,50", "--rate", "1000").contains("not both"));
        assertEquals("--window must be at least 1, not 0", error("--efficiency", "--window", "0"));
        assertTrue(error("--efficiency", "--variants", "4.9.0-tuned").startsWith("--efficiency compares variants with a baseline"));
        assertEquals("--efficiency takes no value", error("--efficiency=yes"));
        assertEquals("--freeze-idle applies to --efficiency only", error("--freeze-idle"));
        assertEquals("--freeze-idle stops the idle variants' local brokers: not with --clients (one broker serves every client)",
            error("--efficiency", "--freeze-idle", "--clients", "stock,patched"));
        assertTrue(error("--efficiency", "--freeze-idle", "--variants", "4.9.0-tuned,4.9.0-patched,4.9.1").startsWith(
            "--freeze-idle with 3 variants and 5 s windows would keep the first variant stopped about 32 s"));
        assertTrue(error("--efficiency", "--freeze-idle", "--window", "7").contains("with --window 6 or less"));
    }

    @Test
    void consumersAreReadInBothModesAndABacklogOnlyInSaturation() throws Exception {
        RunOptions o = CompareCommand.parse(new String[] {"--consumers", "4", "--variants", "4.9.0-tuned,4.9.0-patched"});
        assertEquals(1, o.workload.subscriptionsPerTopic());
        assertEquals(4, o.workload.consumerPerSubscription());
        assertFalse(CompareCommand.parse(new String[] {"--consumers", "0"}).workload.hasConsumers());
        assertFalse(CompareCommand.parse(new String[0]).workload.hasConsumers(), "the default run stays produce-only");
        assertEquals(2, CompareCommand.parse(new String[] {"--efficiency", "--consumers", "2"}).workload.consumerPerSubscription());
        String e = error("--consumers", "-1");
        assertTrue(e.contains("--consumers"), e);
    }

    @Test
    void helpDocumentsEveryNewFlag() {
        String help = CompareCommand.helpText();
        for (String flag : List.of("--efficiency", "--profile", "--window S", "--pairs N", "--pin both|all|auto|on|off|split|LIST", "--rates PCT,PCT...", "--runs N", "--rate MSG_PER_S", "--consumers N", "--freeze-idle")) {
            assertTrue(help.contains(flag), flag);
        }
    }

    @Test
    void remoteBrokersAreOnePerVariantWithAgentsAndNoPinning() throws Exception {
        java.nio.file.Path token = java.nio.file.Files.createTempDirectory("remote-flags").resolve("agent.token");
        dev.rmqpatch.bench.auth.AgentToken.generate().writeNew(token);
        List<String> base = List.of("--efficiency", "--variants", "4.9.0-tuned,4.9.0-patched",
            "--remote", "4.9.0-tuned:namesrv=10.0.0.1:9876;10.0.0.2:9876,jmx=10.0.0.1:10914,jmx=10.0.0.1:11014",
            "--remote", "4.9.0-patched:namesrv=10.0.0.1:10876,jmx=10.0.0.1:11914,jmx=10.0.0.1:12014",
            "--agent", "10.0.0.3:7070", "--agent", "10.0.0.4:7070", "--agent-token-file", token.toString());
        RunOptions o = CompareCommand.parse(base.toArray(new String[0]));
        assertEquals(PinMode.OFF, o.pin, "pinning needs the brokers on this machine");
        assertEquals(2, o.agents);
        assertEquals(List.of("10.0.0.3:7070", "10.0.0.4:7070"), o.remoteAgents);
        assertEquals("10.0.0.1:9876;10.0.0.2:9876", o.remote.get(0).namesrv());
        assertEquals(List.of("10.0.0.1:11914", "10.0.0.1:12014"), o.remote.get(1).masterJmx());

        java.util.function.Function<List<String>, String> with = more -> {
            List<String> a = new java.util.ArrayList<>(base);
            a.addAll(more);
            return error(a.toArray(new String[0]));
        };
        assertTrue(with.apply(List.of("--pin", "on")).contains("--pin on needs the brokers on this machine"));
        assertTrue(with.apply(List.of("--profile")).contains("--profile attaches async-profiler"));
        assertTrue(with.apply(List.of("--runs", "3")).contains("--runs starts fresh brokers"));
        assertTrue(with.apply(List.of("--agents", "2")).contains("not both"));
        assertTrue(with.apply(List.of("--set", "a=b")).contains("--set configures brokers this plan starts"));
        assertTrue(with.apply(List.of("--topology", "ms-sync")).contains("give their JMX ports (slave-jmx=HOST:PORT)"));
        assertTrue(with.apply(List.of("--remote", "4.9.1:namesrv=10.0.0.1:9876,jmx=10.0.0.1:1")).contains("not in --variants"));
        assertTrue(error("--efficiency", "--remote", "4.9.0-tuned:namesrv=10.0.0.1:9876,jmx=10.0.0.1:1", "--agent", "10.0.0.3:7070",
            "--agent-token-file", token.toString()).contains("no cluster for variant 4.9.0-patched"));
        assertTrue(error("--efficiency", "--remote", "4.9.0-tuned:jmx=10.0.0.1:1").contains("needs namesrv= and at least one jmx="));
        assertTrue(error("--efficiency", "--remote", "4.9.0-tuned:namesrv=10.0.0.1:9876,jmx=10.0.0.1").contains("is not HOST:PORT"));
        assertTrue(error("--efficiency", "--remote", "4.9.0-tuned:namesrv=10.0.0.1:9876,jxm=10.0.0.1:1").contains("unknown key 'jxm'"));
        assertTrue(error("--efficiency", "--agent", "10.0.0.3:7070").contains("--agent goes with --remote"));
        assertTrue(error("--agent", "10.0.0.3:7070").contains("--agent applies to --efficiency only"));
        String missingAgents = error(base.subList(0, 7).toArray(new String[0]));
        assertTrue(missingAgents.contains("--remote needs the agents"), missingAgents);
        assertTrue(CompareCommand.helpText().contains("--remote " + dev.rmqpatch.bench.engine.RemoteCluster.FORMAT));
    }
}
