package dev.rmqpatch.bench.command;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.rmqpatch.bench.broker.StoreStalls;
import dev.rmqpatch.bench.cli.UsageException;
import dev.rmqpatch.bench.engine.Variant;
import dev.rmqpatch.bench.failover.FailoverOptions;
import dev.rmqpatch.bench.failover.LatencyFault;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** failover's command line: the defaults the issue asks for, the stall agent's argument, clear errors for wrong flags. */
class FailoverCommandTest {

    private static String[] args(Path root, String... more) throws Exception {
        Path jar = root.resolve(StoreStalls.JAR);
        Files.createDirectories(jar.getParent());
        if (!Files.exists(jar)) {
            Files.writeString(jar, "");
        }
        List<String> a = new ArrayList<>(List.of("--repo-root", root.toString()));
        a.addAll(List.of(more));
        return a.toArray(new String[0]);
    }

    private static String error(String[] args) {
        return assertThrows(UsageException.class, () -> FailoverCommand.parse(args)).getMessage();
    }

    @Test
    void defaults(@TempDir Path root) throws Exception {
        FailoverOptions o = FailoverCommand.parse(args(root));
        assertEquals(List.of("4.9.0-tuned@8", "4.9.0-patched@8"), o.variants.stream().map(Variant::name).toList());
        assertEquals(8, o.variants.get(0).jdk());
        assertEquals("broker-tuned.conf", o.variants.get(0).confName());
        assertEquals(3, o.rounds);
        assertEquals(new StoreStalls.Plan("append", 500, 2000), o.stall);
        assertEquals(Long.MAX_VALUE, o.stallTimes);
        assertEquals(List.of(LatencyFault.ON, LatencyFault.OFF), o.faults);
        assertEquals(4, o.producers);
        assertEquals(1000.0, o.rate);
        assertEquals(300, o.size);
        assertEquals(15, o.warmupSeconds);
        assertEquals(60, o.durationSeconds);
        assertEquals(3000, o.sendTimeoutMillis);
        assertEquals(2, o.retries);
        assertEquals("1g", o.brokerHeap);
        assertEquals(root.resolve("broker-patches/target").toAbsolutePath().normalize(), o.distDir);
        assertTrue(o.outDir.getFileName().toString().startsWith("failover-"), o.outDir.toString());
        assertEquals(root.resolve(StoreStalls.JAR).toAbsolutePath().normalize(), o.stallAgentJar);
        assertTrue(o.commandLine.endsWith("failover"), "--repo-root is left out of the recorded command: " + o.commandLine);
    }

    @Test
    void aSingleLongStallIsTheAgentsTimesOne(@TempDir Path root) throws Exception {
        FailoverOptions o = FailoverCommand.parse(args(root, "--stall", "append:8000/60000", "--stall-times", "1", "--warmup", "5",
            "--latency-fault=off", "--variants", "4.9.0-tuned,4.9.0-patched", "--rounds", "1"));
        assertEquals(1, o.stallTimes);
        assertEquals(List.of(LatencyFault.OFF), o.faults);
        assertEquals(25_000, o.stallAfterMillis(), "two brokers' start-up, then the warm-up");
        assertTrue(o.stall.jvmOption(o.stallAgentJar, o.stallAfterMillis(), o.stallTimes)
            .endsWith("=point=append,millis=8000,everyMillis=60000,afterMillis=25000,times=1"));
    }

    @Test
    void wrongFlagsAreClearErrors(@TempDir Path root) throws Exception {
        assertEquals("--latency-fault must be on or off or both, not 'yes'", error(args(root, "--latency-fault", "yes")));
        assertTrue(error(args(root, "--stall", "append:500")).contains("POINT:MILLIS/EVERY_MILLIS"));
        assertTrue(error(args(root, "--stall", "append:500/200")).contains("EVERY_MILLIS must be longer"));
        assertEquals("--rate must be above 0 (a fixed rate), not 0.0", error(args(root, "--rate", "0")));
        assertEquals("--stall-times must be at least 1, not 0", error(args(root, "--stall-times", "0")));
        assertEquals("--producers needs a whole number, not 'four'", error(args(root, "--producers", "four")));
        assertEquals("unknown option '--topology'", error(args(root, "--topology", "two-masters")));
        assertEquals("variant 4.9.0-tuned given twice", error(args(root, "--variants", "4.9.0-tuned,4.9.0-tuned")));
        assertTrue(error(args(root, "--variants", "5.3.3-patched")).contains("no patched 5.3.3"));
        assertEquals("unexpected argument 'x'", error(args(root, "x")));
    }

    @Test
    void aMissingStallAgentSaysHowToBuildIt(@TempDir Path root) {
        String e = assertThrows(UsageException.class, () -> FailoverCommand.parse(new String[] {"--repo-root", root.toString()}))
            .getMessage();
        assertTrue(e.contains("failover needs the stall agent jar") && e.contains(StoreStalls.BUILD), e);
    }

    @Test
    void helpListsEveryFlagWithItsDefault() {
        String help = FailoverCommand.helpText();
        for (String s : List.of("--variants LIST", "4.9.0-tuned@8,4.9.0-patched@8", "--rounds N", "--stall", "append:500/2000",
            "--stall-times N", "--latency-fault on|off|both", "(default both)", "--producers N", "--rate MSG_PER_S", "--size BYTES",
            "(default 300)", "--warmup S", "--duration S", "--send-timeout MS", "--retries N", "--broker-heap SIZE", "--dist-dir DIR",
            "--out DIR", "--no-build")) {
            assertTrue(help.contains(s), s + " in:\n" + help);
        }
    }
}
