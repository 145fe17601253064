package dev.rmqpatch.bench.pinning;

import java.util.List;

/** Which CPUs processes may run on. An interface so the plan and its fallback can be tested without touching any process. */
public interface Affinity {
    /** The CPUs this process may run on (what the JVM sized its threads by at start). */
    List<Integer> allowedCpus() throws AffinityException;

    /** Restricts every thread of {@code pid} (and the threads it starts later) to {@code cpus}. */
    void pin(long pid, List<Integer> cpus) throws AffinityException;

    /** Every thread of {@code pid} now: its id, the kernel's copy of its name and the CPUs it may run on. */
    List<ThreadAffinity> threads(long pid) throws AffinityException;

    /**
     * Restricts one thread to {@code cpus} (threads it starts later inherit them). A thread that ended meanwhile is no
     * failure: it needs no affinity.
     */
    void pinThread(long tid, List<Integer> cpus) throws AffinityException;

    /** One thread of a process as {@link #threads} reads it. */
    record ThreadAffinity(long tid, String name, List<Integer> cpus) {
    }

    /** Affinity cannot be read or set here (no taskset, not permitted, not Linux); the message says which. */
    final class AffinityException extends Exception {
        public AffinityException(String message, Throwable cause) {
            super(message, cause);
        }
    }
}
