package dev.rmqpatch.bench.broker;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.rmqpatch.bench.auth.SecretFiles;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A JVM with the JMX set-up deploy gives brokers: password login, one read-only role. */
class JmxReadOnlyLoginTest {
    private static final String USER = "rmqpatch-monitor";
    private static final String PASSWORD = "3f1c0d5e9a7b2468ace0f1e2d3c4b5a6";

    @TempDir
    Path dir;

    private Path credentials(String password) throws Exception {
        Path f = dir.resolve("cred-" + password);
        if (java.nio.file.Files.exists(f)) {
            return f;
        }
        SecretFiles.writeNew(f, "# the coordinator's copy\n" + USER + " " + password + "\n");
        return f;
    }

    private static String check(List<String> args, int[] rc) throws Exception {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        rc[0] = JmxCheckCommand.run(args.toArray(new String[0]), new PrintStream(out, true, StandardCharsets.UTF_8));
        return out.toString(StandardCharsets.UTF_8);
    }

    @Test
    void thePasswordReadsTheCpuMBeanAndCannotInvokeAnything() throws Exception {
        Path jvmDir = dir.resolve("jvm");
        java.nio.file.Files.createDirectories(jvmDir);
        try (JmxTestJvm jvm = JmxTestJvm.startReadOnly(jvmDir, USER, PASSWORD)) {
            int[] rc = new int[1];
            String anonymous = check(List.of("--target", jvm.target()), rc);
            assertEquals(JmxCheckCommand.NO_READ, rc[0], anonymous);
            assertTrue(anonymous.contains("SecurityException"), anonymous);

            String wrong = check(List.of("--target", jvm.target(), "--password-file", credentials("0000000000000000").toString()), rc);
            assertEquals(JmxCheckCommand.NO_READ, rc[0], wrong);

            String right = check(List.of("--target", jvm.target(), "--password-file", credentials(PASSWORD).toString()), rc);
            assertEquals(JmxCheckCommand.READ_ONLY, rc[0], right);
            assertTrue(right.contains(": ok (ProcessCpuTime"), right);
            // The read-only role: invoking java.lang:type=Memory gc() is refused with a SecurityException.
            assertTrue(right.contains("gc(): refused (SecurityException"), right);

            try (JmxBrokerProbe probe = new JmxBrokerProbe(List.of(jvm.target()), JmxAccess.of(credentials(PASSWORD), null), Duration.ofSeconds(20))) {
                assertEquals(List.of(jvm.target()), probe.connect(), probe.warnings().toString());
                JmxBrokerProbe.Totals t = probe.sample();
                assertNotNull(t.cpuNanos());
                assertTrue(t.gcCollections() >= 3, "GC MBeans readable: " + t.gcCollections());
            }
            try (JmxBrokerProbe probe = new JmxBrokerProbe(List.of(jvm.target()), Duration.ofSeconds(20))) {
                assertNull(probe.sample().cpuNanos());
                assertTrue(probe.warnings().get(0).contains("Authentication failed"), probe.warnings().toString());
            }
        }
    }

    @Test
    void theUnauthenticatedTestJvmShowsWhatAWritablePortLooksLike() throws Exception {
        try (JmxTestJvm jvm = JmxTestJvm.start()) {
            int[] rc = new int[1];
            String out = check(List.of("--target", jvm.target()), rc);
            assertEquals(JmxCheckCommand.WRITABLE, rc[0], out);
            assertTrue(out.contains("ALLOWED"), out);
        }
    }
}
