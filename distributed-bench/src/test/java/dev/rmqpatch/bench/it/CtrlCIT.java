package dev.rmqpatch.bench.it;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** SIGINT (Ctrl-C) to {@code bench run} stops every process it started. */
@Timeout(180)
class CtrlCIT {
    @TempDir
    Path dir;

    @Test
    void interruptStopsAgentsAndBroker() throws Exception {
        Path java = Path.of(System.getProperty("java.home"), "bin", "java");
        Path out = dir.resolve("run.out");
        // Started as a terminal starts it, with SIGINT at its default: a job started in the background of a
        // non-interactive shell (a CI script's `... &`) inherits SIGINT ignored, and a JVM leaves an ignored SIGINT ignored.
        Process run = new ProcessBuilder("env", "--default-signal=INT", java.toString(), "-jar", Dists.benchJar().toString(), "run",
            "--dist", Dists.stock().toString(), "--broker-heap", "512m", "--set", "mappedFileSizeCommitLog=67108864",
            "--agents", "2", "--threads", "2", "--warmup", "1", "--duration", "120", "--out", dir.resolve("out").toString())
            .redirectErrorStream(true).redirectOutput(out.toFile()).start();
        List<ProcessHandle> children = List.of();
        try {
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
            while (!Files.readString(out).contains("measure") && run.isAlive() && System.nanoTime() < deadline) {
                Thread.sleep(200);
            }
            assertTrue(Files.readString(out).contains("measure"), "the run got going:\n" + Files.readString(out));
            children = run.descendants().toList();
            // 2 agents, name server, broker, jstat.
            assertTrue(children.size() >= 4, "children: " + children.size());
            new ProcessBuilder("kill", "-INT", Long.toString(run.pid())).start().waitFor();
            if (!run.waitFor(60, TimeUnit.SECONDS)) {
                // Keep what the coordinator was doing for the next reader.
                Path stacks = dir.resolve("stacks.txt");
                new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "jcmd").toString(), Long.toString(run.pid()), "Thread.print")
                    .redirectErrorStream(true).redirectOutput(stacks.toFile()).start().waitFor(30, TimeUnit.SECONDS);
                fail("the coordinator did not exit within 60 s of SIGINT; its output:\n" + Files.readString(out) + "\nits threads:\n"
                    + Files.readString(stacks));
            }
            for (ProcessHandle child : children) {
                child.onExit().get(30, TimeUnit.SECONDS);
                assertFalse(child.isAlive(), "child " + child.pid() + " " + child.info().command().orElse("") + " still runs");
            }
        } finally {
            run.destroyForcibly();
            for (ProcessHandle child : children) {
                child.destroyForcibly();
            }
        }
    }
}
