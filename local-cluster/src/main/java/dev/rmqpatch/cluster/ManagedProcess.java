package dev.rmqpatch.cluster;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * A child process whose output goes to a file, registered with {@link ChildProcesses} so that Ctrl-C, an exception
 * or a normal exit stops it. Knows how to describe its own death for error messages (exit code, output tail).
 */
public final class ManagedProcess {
    private final String name;
    private final Process process;
    private final Path output;
    private final List<String> command;

    private ManagedProcess(String name, Process process, Path output, List<String> command) {
        this.name = name;
        this.process = process;
        this.output = output;
        this.command = command;
    }

    /** Starts {@code command} with stdout and stderr appended to {@code output}; a null env value unsets the variable. */
    public static ManagedProcess start(String name, List<String> command, Map<String, String> env, Path workDir, Path output)
        throws IOException {
        Files.createDirectories(output.toAbsolutePath().getParent());
        ProcessBuilder builder = new ProcessBuilder(command)
            .redirectErrorStream(true)
            .redirectOutput(ProcessBuilder.Redirect.appendTo(output.toFile()))
            .redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")));
        if (workDir != null) {
            builder.directory(workDir.toFile());
        }
        env.forEach((k, v) -> {
            if (v == null) {
                builder.environment().remove(k);
            } else {
                builder.environment().put(k, v);
            }
        });
        ManagedProcess managed;
        synchronized (ChildProcesses.class) {
            // Registered under the same lock the shutdown hook takes, so no child escapes a concurrent Ctrl-C.
            ChildProcesses.checkNotShuttingDown(name);
            managed = new ManagedProcess(name, builder.start(), output, List.copyOf(command));
            ChildProcesses.register(managed);
        }
        return managed;
    }

    public String name() {
        return name;
    }

    public long pid() {
        return process.pid();
    }

    public Path output() {
        return output;
    }

    public List<String> command() {
        return command;
    }

    public boolean isAlive() {
        return process.isAlive();
    }

    public Integer exitCode() {
        return process.isAlive() ? null : process.exitValue();
    }

    /** "exited with code 1; last output: ..." or "is running", for error messages. */
    public String describeState() {
        if (process.isAlive()) {
            return name + " (pid " + pid() + ") is running";
        }
        return name + " (pid " + pid() + ") exited with code " + process.exitValue() + lastOutput();
    }

    public String lastOutput() {
        String tail = tail(output, 12);
        return tail.isBlank() ? "; no output (see " + output + ")" : "; last output (" + output + "):\n" + tail;
    }

    /** SIGTERM, then SIGKILL after the grace period; waits for the process (and its children) to be gone. */
    public void stop(Duration grace) {
        List<ProcessHandle> descendants = process.descendants().toList();
        process.destroy();
        try {
            if (!process.waitFor(grace.toMillis(), TimeUnit.MILLISECONDS)) {
                process.destroyForcibly();
                process.waitFor(10, TimeUnit.SECONDS);
            }
        } catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
        }
        for (ProcessHandle d : descendants) {
            if (d.isAlive()) {
                d.destroyForcibly();
            }
        }
        ChildProcesses.unregister(this);
    }

    /** SIGKILL, as a crash would (no shutdown hook runs), and waits for the process to be gone. */
    public void kill() {
        process.destroyForcibly();
        try {
            process.waitFor(10, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        ChildProcesses.unregister(this);
    }

    /** Sends SIGTERM without waiting (used to stop many processes in parallel before waiting for each). */
    void signalStop() {
        process.destroy();
    }

    /** Last lines of a text file, or "" if it cannot be read. */
    public static String tail(Path file, int lines) {
        try (RandomAccessFile raf = new RandomAccessFile(file.toFile(), "r")) {
            long length = raf.length();
            int chunk = (int) Math.min(length, 16 * 1024);
            raf.seek(length - chunk);
            byte[] bytes = new byte[chunk];
            raf.readFully(bytes);
            String[] all = new String(bytes, StandardCharsets.UTF_8).split("\\R");
            int from = Math.max(0, all.length - lines);
            return String.join("\n", java.util.Arrays.copyOfRange(all, from, all.length));
        } catch (IOException e) {
            return "";
        }
    }
}
