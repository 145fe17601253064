package dev.rmqpatch.bench.profile;

/**
 * The profiler's CPU sampling engine and why it was chosen: {@code cpu} (perf_events: CPU time, kernel stacks
 * included) where the kernel lets this user open perf events, else {@code itimer} (setitimer: CPU time of Java and
 * native code, no kernel frames), so a profile is still taken where perf events are forbidden (perf_event_paranoid,
 * seccomp in containers).
 */
public record SamplingEvent(String name, String reason) {
    public static final String CPU = "cpu";
    public static final String ITIMER = "itimer";

    /** Asks the profiler inside JVM {@code pid} whether perf events work there ({@code check,event=cpu}). */
    public static SamplingEvent choose(AsyncProfiler profiler, long pid) {
        try {
            profiler.execute(pid, "check,event=" + CPU);
            return new SamplingEvent(CPU, "perf events are allowed: CPU time with kernel stacks");
        } catch (AsyncProfiler.ProfilerException e) {
            return new SamplingEvent(ITIMER, "perf events are not allowed here (" + e.getMessage() + "): itimer, CPU time without kernel frames");
        }
    }
}
