package dev.rmqpatch.bench.command;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.rmqpatch.bench.cli.UsageException;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** bench workload: what scripts/run-distributed.sh learns from it (the payload file bench run would read), and its errors. */
class WorkloadCommandTest {
    @TempDir
    Path dir;

    private String run(String... args) throws Exception {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        assertEquals(0, WorkloadCommand.run(args, new PrintStream(bytes, true, StandardCharsets.UTF_8)));
        return bytes.toString(StandardCharsets.UTF_8);
    }

    @Test
    void printsThePayloadFileAsWrittenAndWhereItWasFound() throws Exception {
        Path w = dir.resolve("w.yaml");
        Files.writeString(w, "name: w\nmessageSize: 8\npayloadFile: \"payload/p.data\"\nsubscriptionsPerTopic: 1\nconsumerPerSubscription: 1\n");
        Path omb = Files.createDirectories(dir.resolve("omb/payload")).getParent();
        Files.write(omb.resolve("payload/p.data"), new byte[8]);
        String out = run("--workload", w.toString(), "--payload-dir", omb.toString());
        assertTrue(out.contains("workload: w: 1 topic(s)"), out);
        assertTrue(out.contains("\npayloadFile: payload/p.data\n"), out);
        assertTrue(out.contains("\npayloadPath: " + omb.resolve("payload/p.data").toAbsolutePath().normalize() + "\n"), out);
    }

    @Test
    void noPayloadLinesWithoutAPayloadFile() throws Exception {
        Path w = dir.resolve("r.yaml");
        Files.writeString(w, "name: r\nuseRandomizedPayloads: true\nrandomBytesRatio: 0.5\nrandomizedPayloadPoolSize: 10\npayloadFile: \"payload/x\"\n");
        String out = run("--workload", w.toString());
        assertFalse(out.contains("payloadFile:"), "randomized payloads win over the file, as in OMB: " + out);
    }

    @Test
    void errorsAreBenchRunsAndNameThePaths() throws Exception {
        Path w = dir.resolve("w.yaml");
        Files.writeString(w, "messageSize: 8\npayloadFile: \"payload/p.data\"\n");
        String e = assertThrows(UsageException.class, () -> WorkloadCommand.run(new String[] {"--workload", w.toString()}, System.out)).getMessage();
        assertTrue(e.contains(dir.resolve("payload/p.data").toString()), e);
        e = assertThrows(UsageException.class, () -> WorkloadCommand.run(new String[] {"--workload", dir.resolve("none.yaml").toString()}, System.out))
            .getMessage();
        assertTrue(e.contains("no workload file " + dir.resolve("none.yaml")), e);
        Files.writeString(w, "messageSize: 8\nfoo: 1\n");
        e = assertThrows(UsageException.class, () -> WorkloadCommand.run(new String[] {"--workload", w.toString()}, System.out)).getMessage();
        assertTrue(e.contains("unknown workload field 'foo'"), e);
        e = assertThrows(UsageException.class, () -> WorkloadCommand.run(new String[0], System.out)).getMessage();
        assertTrue(e.contains("--workload FILE"), e);
        e = assertThrows(UsageException.class, () -> WorkloadCommand.run(new String[] {"--workload", w.toString(), "--threads", "3"}, System.out))
            .getMessage();
        assertTrue(e.contains("unknown option '--threads'"), e);
    }
}
