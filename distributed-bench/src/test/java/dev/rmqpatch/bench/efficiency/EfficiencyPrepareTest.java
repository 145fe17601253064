package dev.rmqpatch.bench.efficiency;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import dev.rmqpatch.bench.protocol.PrepareRequest;
import dev.rmqpatch.bench.workload.Workload;
import dev.rmqpatch.bench.workload.WorkloadParser;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Base64;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** compare --efficiency sends the workload's keys and bodies as bench run does, instead of leaving them out. */
class EfficiencyPrepareTest {
    @TempDir
    Path dir;

    private static final List<PrepareRequest.Target> TARGETS = List.of(new PrepareRequest.Target("127.0.0.1:9876", List.of("t")));

    @Test
    void payloadFileFromThePayloadDirAndKeys() throws Exception {
        Path w = dir.resolve("w.yaml");
        Files.writeString(w, "messageSize: 4\npayloadFile: \"payload/p.data\"\nkeyDistributor: \"KEY_ROUND_ROBIN\"\n");
        Files.createDirectories(dir.resolve("omb/payload"));
        Files.write(dir.resolve("omb/payload/p.data"), new byte[] {1, 2, 3, 4});
        PrepareRequest r = Rig.prepareRequest(WorkloadParser.parse(w), dir.resolve("omb"), "id", TARGETS);
        assertArrayEquals(new byte[] {1, 2, 3, 4}, Base64.getDecoder().decode(r.payloadBase64));
        assertEquals("KEY_ROUND_ROBIN", r.keyDistributor);
        assertEquals(0, r.randomizedPayloadPoolSize);
    }

    @Test
    void randomizedPool() throws Exception {
        Workload w = WorkloadParser.parse("useRandomizedPayloads: true\nrandomBytesRatio: 0.25\nrandomizedPayloadPoolSize: 7\n");
        PrepareRequest r = Rig.prepareRequest(w, null, "id", TARGETS);
        assertEquals(7, r.randomizedPayloadPoolSize);
        assertEquals(0.25, r.randomBytesRatio);
        assertNull(r.payloadBase64);
        assertNull(r.keyDistributor);
    }
}
