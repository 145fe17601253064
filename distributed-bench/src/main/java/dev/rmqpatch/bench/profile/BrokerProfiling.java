package dev.rmqpatch.bench.profile;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.stream.Stream;

/**
 * Profiling of a comparison's broker JVMs: the profiler library extracted once per run into a temporary folder
 * (removed at the end), one {@link ProfiledJvm} per broker, and one sampling event for all of them, chosen on the
 * first broker, so every variant is sampled the same way.
 */
public final class BrokerProfiling implements AutoCloseable {
    private final Path dir;
    private final AsyncProfiler profiler;
    private SamplingEvent event;

    private BrokerProfiling(Path dir, AsyncProfiler profiler) {
        this.dir = dir;
        this.profiler = profiler;
    }

    public static BrokerProfiling open() throws AsyncProfiler.ProfilerException {
        if (ModuleLayer.boot().findModule("jdk.attach").isEmpty()) {
            throw new AsyncProfiler.ProfilerException("profiling attaches to the brokers through the jdk.attach module, which this Java ("
                + System.getProperty("java.home") + ") lacks: run with a full JDK 17+", null);
        }
        Path dir;
        try {
            dir = Files.createTempDirectory("rmqpatch-profiler-");
        } catch (IOException e) {
            throw new AsyncProfiler.ProfilerException("cannot create a temporary folder for the profiler: " + e.getMessage(), e);
        }
        return new BrokerProfiling(dir, AsyncProfiler.extract(dir));
    }

    /** A session for JVM {@code pid}; nothing is recorded until its first {@link ProfiledJvm#resume()}. */
    public ProfiledJvm session(long pid) {
        if (event == null) {
            event = SamplingEvent.choose(profiler, pid);
        }
        return new ProfiledJvm(profiler, pid, event);
    }

    /** The event every session uses; null before the first session. */
    public SamplingEvent event() {
        return event;
    }

    @Override
    public void close() {
        try (Stream<Path> files = Files.walk(dir)) {
            files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (IOException ignored) {
            // A leftover temporary folder is harmless.
        }
    }
}
