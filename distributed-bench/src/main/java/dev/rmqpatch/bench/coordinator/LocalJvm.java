package dev.rmqpatch.bench.coordinator;

import dev.rmqpatch.cluster.ManagedProcess;
import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Starts a helper JVM (agent or sink) with this JVM's class path, on this JVM's java or (a client comparison's
 * {@code @8} agents) a JDK 8's ({@link HelperJdk}), and waits for the line on which it prints the port it bound (they
 * listen on port 0, so concurrent runs never collide).
 */
public final class LocalJvm {
    private LocalJvm() {
    }

    /** A started process and the port it announced. */
    public static final class Started {
        public final ManagedProcess process;
        public final int port;

        Started(ManagedProcess process, int port) {
            this.process = process;
            this.port = port;
        }
    }

    /** The RocketMQ client's Netty 4.0 reflects into NIO internals, which JDK 9+ closes unless opened. */
    public static final List<String> NIO_OPENS = List.of(
        "--add-opens", "java.base/java.nio=ALL-UNNAMED", "--add-opens", "java.base/sun.nio.ch=ALL-UNNAMED");

    /** The harness's entry point, which a sink JVM runs ({@code sink ...}). */
    public static final String HARNESS_MAIN = "dev.rmqpatch.bench.Main";

    public static Started launch(String name, List<String> jvmOptions, List<String> mainArgs, Path output, String readyPrefix,
                                 Duration timeout) throws IOException {
        return launch(name, command(HelperJdk.harness(), jvmOptions, List.of(), HARNESS_MAIN, mainArgs), output, readyPrefix, timeout);
    }

    /**
     * The command line of a helper JVM: {@code jdk}'s java, its module opens, {@code jvmOptions}, then the class path:
     * {@code classPathFirst} (e.g. patched RocketMQ jars, which then win over the stock ones) before this JVM's own, then
     * {@code mainClass} and its arguments.
     */
    public static List<String> command(HelperJdk jdk, List<String> jvmOptions, List<Path> classPathFirst, String mainClass,
                                       List<String> mainArgs) {
        List<String> command = new ArrayList<>();
        command.add(jdk.java());
        command.addAll(jdk.moduleOptions());
        command.add("-Djava.awt.headless=true");
        command.addAll(jvmOptions);
        command.add("-cp");
        List<String> entries = new ArrayList<>();
        classPathFirst.forEach(p -> entries.add(p.toAbsolutePath().toString()));
        entries.add(classPath());
        command.add(String.join(File.pathSeparator, entries));
        command.add(mainClass);
        command.addAll(mainArgs);
        return command;
    }

    /** Starts {@code command} (as {@link #command} builds it) and waits for its ready line. */
    public static Started launch(String name, List<String> command, Path output, String readyPrefix, Duration timeout) throws IOException {
        Files.deleteIfExists(output);
        ManagedProcess process = ManagedProcess.start(name, command, Map.of(), null, output);
        Pattern ready = Pattern.compile(Pattern.quote(readyPrefix) + "(\\d+)");
        long deadline = System.nanoTime() + timeout.toNanos();
        while (true) {
            Matcher m = ready.matcher(Files.exists(output) ? Files.readString(output) : "");
            if (m.find()) {
                return new Started(process, Integer.parseInt(m.group(1)));
            }
            if (!process.isAlive()) {
                throw new IOException(process.describeState());
            }
            if (System.nanoTime() > deadline) {
                process.stop(Duration.ofSeconds(5));
                throw new IOException(name + " did not report its port within " + timeout.toSeconds() + " s" + process.lastOutput());
            }
            try {
                Thread.sleep(50);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                process.stop(Duration.ofSeconds(5));
                throw new IOException("interrupted while starting " + name, e);
            }
        }
    }

    /** This JVM's class path with absolute entries, so the child can run from any directory. */
    static String classPath() {
        List<String> entries = new ArrayList<>();
        for (String entry : System.getProperty("java.class.path").split(File.pathSeparator)) {
            if (!entry.isEmpty()) {
                entries.add(Path.of(entry).toAbsolutePath().toString());
            }
        }
        return String.join(File.pathSeparator, entries);
    }
}
