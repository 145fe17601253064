package dev.rmqpatch.bench.pinning;

import java.util.List;

/** Which CPUs processes may run on. An interface so the plan and its fallback can be tested without touching any process. */
public interface Affinity {
    /** The CPUs this process may run on (what the JVM sized its threads by at start). */
    List<Integer> allowedCpus() throws AffinityException;

    /** Restricts every thread of {@code pid} (and the threads it starts later) to {@code cpus}. */
    void pin(long pid, List<Integer> cpus) throws AffinityException;

    /** Affinity cannot be read or set here (no taskset, not permitted, not Linux); the message says which. */
    final class AffinityException extends Exception {
        public AffinityException(String message, Throwable cause) {
            super(message, cause);
        }
    }
}
