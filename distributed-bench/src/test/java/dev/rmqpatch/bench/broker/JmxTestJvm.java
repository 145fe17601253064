package dev.rmqpatch.bench.broker;

import dev.rmqpatch.cluster.FreePorts;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A child JVM with the JMX options deploy/lib gives brokers, on loopback: by default without authentication (the
 * probe's own tests), or with {@link #startReadOnly} a password file and an access file granting one read-only role,
 * as deploy writes them. It collects three times, then burns CPU on request (a burst, or {@link #spin} in the background).
 */
public final class JmxTestJvm implements AutoCloseable {
    private final Process process;
    private final BufferedReader lines;
    private final int port;

    private JmxTestJvm(Process process, int port) {
        this.process = process;
        this.port = port;
        this.lines = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
    }

    public static JmxTestJvm start() throws Exception {
        return start(List.of("-Dcom.sun.management.jmxremote.authenticate=false"));
    }

    /** Password login, role "readonly" as deploy/lib/secrets.sh writes it; files in DIR (password file 0600, as the JDK demands). */
    public static JmxTestJvm startReadOnly(Path dir, String user, String password) throws Exception {
        Path pw = dir.resolve("jmx.password");
        Path access = dir.resolve("jmx.access");
        dev.rmqpatch.bench.auth.SecretFiles.writeNew(pw, user + " " + password + "\n");
        dev.rmqpatch.bench.auth.SecretFiles.writeNew(access, user + " readonly\n");
        return start(List.of("-Dcom.sun.management.jmxremote.authenticate=true", "-Dcom.sun.management.jmxremote.password.file=" + pw,
            "-Dcom.sun.management.jmxremote.access.file=" + access));
    }

    private static JmxTestJvm start(List<String> auth) throws Exception {
        int port = FreePorts.any();
        Path classes = Path.of(Child.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        List<String> command = new java.util.ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
            "-Xmx64m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1",
            "-Dcom.sun.management.jmxremote.port=" + port, "-Dcom.sun.management.jmxremote.rmi.port=" + port,
            "-Dcom.sun.management.jmxremote.ssl=false",
            "-Djava.rmi.server.hostname=127.0.0.1", "-Dcom.sun.management.jmxremote.host=127.0.0.1"));
        command.addAll(auth);
        command.addAll(List.of("-cp", classes.toString(), Child.class.getName()));
        JmxTestJvm jvm = new JmxTestJvm(new ProcessBuilder(command).redirectErrorStream(true).start(), port);
        try {
            String first = jvm.lines.readLine();
            if (!"ready".equals(first)) {
                throw new IOException("the JMX test JVM said '" + first + "' instead of ready");
            }
            return jvm;
        } catch (IOException | RuntimeException e) {
            jvm.close();
            throw e;
        }
    }

    public String target() {
        return "127.0.0.1:" + port;
    }

    /** Makes the child spend about 200 ms of CPU; returns when it has. */
    public void burn() throws IOException {
        process.getOutputStream().write('\n');
        process.getOutputStream().flush();
        String line = lines.readLine();
        if (!"burned".equals(line)) {
            throw new IOException("the JMX test JVM said '" + line + "' instead of burned");
        }
    }

    /**
     * Makes the child keep spending CPU in the background, about {@code percent}% of one core (busy part of every 10 ms),
     * so that its CPU time grows in any window; returns once it started.
     */
    public void spin(int percent) throws IOException {
        process.getOutputStream().write(("spin " + percent + "\n").getBytes(StandardCharsets.UTF_8));
        process.getOutputStream().flush();
        String line = lines.readLine();
        if (!"spinning".equals(line)) {
            throw new IOException("the JMX test JVM said '" + line + "' instead of spinning");
        }
    }

    /** The child's CPU time so far, as the operating system counts it (not over JMX). */
    public long cpuNanos() {
        return process.toHandle().info().totalCpuDuration().orElseThrow().toNanos();
    }

    @Override
    public void close() throws InterruptedException {
        process.destroy();
        if (!process.waitFor(10, TimeUnit.SECONDS)) {
            process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
        }
    }

    /** The observed JVM's main; it exits at the end of its input, so it cannot outlive a crashed test JVM for long. */
    public static final class Child {
        public static void main(String[] args) throws Exception {
            for (int i = 0; i < 3; i++) {
                System.gc();
            }
            System.out.println("ready");
            System.out.flush();
            BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
            String line;
            while ((line = in.readLine()) != null) {
                if (line.startsWith("spin ")) {
                    int percent = Integer.parseInt(line.substring(5).trim());
                    Thread spinner = new Thread(() -> {
                        long y = 0;
                        while (true) {
                            long busyUntil = System.nanoTime() + TimeUnit.MICROSECONDS.toNanos(100L * percent);
                            while (System.nanoTime() < busyUntil) {
                                y += Long.numberOfTrailingZeros(System.nanoTime());
                            }
                            try {
                                Thread.sleep(10 - percent / 10);
                            } catch (InterruptedException e) {
                                return;
                            }
                        }
                    }, "spinner");
                    spinner.setDaemon(true);
                    spinner.start();
                    System.out.println("spinning");
                    System.out.flush();
                    continue;
                }
                long end = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(200);
                long x = 0;
                while (System.nanoTime() < end) {
                    x += Long.numberOfTrailingZeros(System.nanoTime());
                }
                System.out.println(x >= 0 ? "burned" : "?");
                System.out.flush();
            }
        }
    }
}
