package dev.rmqpatch.bench.profile;

import com.sun.tools.attach.AgentInitializationException;
import com.sun.tools.attach.AgentLoadException;
import com.sun.tools.attach.AttachNotSupportedException;
import com.sun.tools.attach.VirtualMachine;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * async-profiler ({@code tools.profiler:async-profiler} on the class path) driven from this JVM. Its native library is
 * extracted from the jar into a folder of the run and loaded into a target JVM through the Attach API, once per
 * command, which is how async-profiler's own {@code asprof} works. The option string reaches the profiler as one
 * argument: no shell and no jcmd parser splits it. Each command writes its messages to a log file of its own, which is
 * how a failure's reason ("Perf events unavailable", "Profiler already started") comes back.
 */
public final class AsyncProfiler {
    private final Path library;
    private final Path logDir;
    private final AtomicInteger commands = new AtomicInteger();

    private AsyncProfiler(Path library, Path logDir) {
        this.library = library;
        this.logDir = logDir;
    }

    /** Extracts the library for this machine into {@code dir}. */
    public static AsyncProfiler extract(Path dir) throws ProfilerException {
        String platform = platform();
        String resource = platform + "/libasyncProfiler.so";
        try (InputStream in = AsyncProfiler.class.getClassLoader().getResourceAsStream(resource)) {
            if (in == null) {
                throw new ProfilerException("no " + resource + " on the class path: the async-profiler jar is missing from "
                    + "distributed-bench/target/lib (rebuild with mvn -B -pl distributed-bench -am package -DskipTests)", null);
            }
            Files.createDirectories(dir);
            Path library = dir.resolve("libasyncProfiler.so");
            Files.copy(in, library, StandardCopyOption.REPLACE_EXISTING);
            return new AsyncProfiler(library, dir);
        } catch (IOException e) {
            throw new ProfilerException("cannot extract " + resource + " into " + dir + ": " + e.getMessage(), e);
        }
    }

    private static String platform() throws ProfilerException {
        String os = System.getProperty("os.name", "").toLowerCase(java.util.Locale.ROOT);
        String arch = System.getProperty("os.arch", "");
        if (!os.contains("linux")) {
            throw new ProfilerException("profiling needs Linux (async-profiler's Linux library); this is " + os, null);
        }
        switch (arch) {
            case "amd64":
            case "x86_64":
                return "linux-x64";
            case "aarch64":
            case "arm64":
                return "linux-arm64";
            default:
                throw new ProfilerException("async-profiler ships no Linux library for " + arch + " (only x64 and arm64)", null);
        }
    }

    public Path library() {
        return library;
    }

    /**
     * Runs one profiler command ({@code start,event=cpu,...}, {@code stop}, {@code dump,file=...}) in JVM {@code pid}
     * and returns what the profiler logged; throws with that log when the command failed.
     */
    public String execute(long pid, String command) throws ProfilerException {
        Path log = logDir.resolve("command-" + pid + "-" + commands.incrementAndGet() + ".log");
        VirtualMachine vm;
        try {
            vm = VirtualMachine.attach(Long.toString(pid));
        } catch (AttachNotSupportedException | IOException e) {
            throw new ProfilerException("cannot attach to JVM " + pid + ": " + e.getMessage(), e);
        }
        try {
            vm.loadAgentPath(library.toString(), command + ",log=" + log);
            return readLog(log);
        } catch (AgentLoadException e) {
            if (isJdk8Success(e)) {
                return readLog(log);
            }
            String said = readLog(log);
            throw new ProfilerException("async-profiler refused '" + command + "' in JVM " + pid + ": "
                + (said.isEmpty() ? e.getMessage() : said), e);
        } catch (AgentInitializationException e) {
            String said = readLog(log);
            throw new ProfilerException("async-profiler refused '" + command + "' in JVM " + pid + ": "
                + (said.isEmpty() ? e.getMessage() : said), e);
        } catch (IOException e) {
            throw new ProfilerException("lost JVM " + pid + " during '" + command + "': " + e.getMessage(), e);
        } finally {
            try {
                vm.detach();
            } catch (IOException ignored) {
                // The command's outcome is known already.
            }
        }
    }

    /**
     * A JDK 8 target answers a load with the bare return code ("0") where the JDK 9+ client expects "return code: 0",
     * so the client reports even a successful load as an AgentLoadException whose message is that code.
     */
    static boolean isJdk8Success(AgentLoadException e) {
        return "0".equals(String.valueOf(e.getMessage()).trim());
    }

    private static String readLog(Path log) {
        try {
            String text = Files.exists(log) ? Files.readString(log, StandardCharsets.UTF_8).trim() : "";
            Files.deleteIfExists(log);
            return text;
        } catch (IOException e) {
            return "";
        }
    }

    /** The profiler could not be loaded or refused a command; the message carries its own words. */
    public static final class ProfilerException extends Exception {
        public ProfilerException(String message, Throwable cause) {
            super(message, cause);
        }
    }
}
