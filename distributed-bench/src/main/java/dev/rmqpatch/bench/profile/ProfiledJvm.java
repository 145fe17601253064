package dev.rmqpatch.bench.profile;

import java.nio.file.Files;
import java.nio.file.Path;

/**
 * One JVM profiled over one or more windows. The first window starts the profiler, later ones resume it, so samples
 * of all windows accumulate and nothing between the windows is recorded; {@link #dump} writes them all as collapsed
 * stacks with frame-type annotations (_[j] compiled, _[i] inlined, _[k] kernel ...), which the flame graph colours by.
 */
public final class ProfiledJvm {
    /** Sampling interval: 1 ms of CPU time per sample gives thousands of samples per window at a few percent overhead. */
    public static final String INTERVAL = "1ms";

    private final AsyncProfiler profiler;
    private final long pid;
    private final SamplingEvent event;
    private boolean started;
    private boolean running;
    private int windows;

    public ProfiledJvm(AsyncProfiler profiler, long pid, SamplingEvent event) {
        this.profiler = profiler;
        this.pid = pid;
        this.event = event;
    }

    public long pid() {
        return pid;
    }

    public int windows() {
        return windows;
    }

    public void resume() throws AsyncProfiler.ProfilerException {
        if (running) {
            return;
        }
        String options = "event=" + event.name() + ",interval=" + INTERVAL;
        profiler.execute(pid, (started ? "resume," : "start,") + options);
        started = true;
        running = true;
        windows++;
    }

    public void pause() throws AsyncProfiler.ProfilerException {
        if (!running) {
            return;
        }
        running = false;
        profiler.execute(pid, "stop");
    }

    /** Writes every sample so far to {@code collapsed}; returns false when nothing was profiled. */
    public boolean dump(Path collapsed) throws AsyncProfiler.ProfilerException {
        if (!started) {
            return false;
        }
        pause();
        String file = collapsed.toAbsolutePath().toString();
        if (file.indexOf(',') >= 0) {
            // The profiler's options are comma-separated; a comma in the path would cut it.
            throw new AsyncProfiler.ProfilerException("cannot write a profile to a path with a comma: " + file, null);
        }
        try {
            Files.createDirectories(collapsed.toAbsolutePath().getParent());
        } catch (java.io.IOException e) {
            throw new AsyncProfiler.ProfilerException("cannot create " + collapsed.getParent() + ": " + e.getMessage(), e);
        }
        profiler.execute(pid, "dump,file=" + file + ",collapsed,ann");
        if (!Files.isRegularFile(collapsed)) {
            throw new AsyncProfiler.ProfilerException("the profiler of JVM " + pid + " wrote no " + collapsed, null);
        }
        return true;
    }
}
