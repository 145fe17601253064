package dev.rmqpatch.bench.pinning;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Records what would be pinned, process by process and thread by thread, and keeps each fake process's threads with
 * their CPUs as the kernel would after each call; fails from the n-th call on when told to. No real process is touched.
 */
final class FakeAffinity implements Affinity {
    /** Per process, the CPUs of its last whole-process pin. */
    final Map<Long, List<Integer>> pinned = new LinkedHashMap<>();
    /** Per process, its threads (id to name, in start order) and each thread's CPUs now. */
    final Map<Long, Map<Long, String>> names = new LinkedHashMap<>();
    final Map<Long, List<Integer>> threadCpus = new LinkedHashMap<>();
    /** Thread ids given to {@link #pinThread}, in call order. */
    final List<Long> threadCalls = new ArrayList<>();
    final List<Integer> allowed;
    int failFromCall = Integer.MAX_VALUE;
    int calls;

    FakeAffinity(List<Integer> allowed) {
        this.allowed = allowed;
    }

    /** A thread {@code pid} starts, with the CPUs it inherits. */
    void thread(long pid, long tid, String name, List<Integer> cpus) {
        names.computeIfAbsent(pid, k -> new LinkedHashMap<>()).put(tid, name);
        threadCpus.put(tid, cpus);
    }

    @Override
    public List<Integer> allowedCpus() throws AffinityException {
        if (allowed == null) {
            throw new AffinityException("cannot read the CPUs this process may use from /proc/self/status: no such file", null);
        }
        return allowed;
    }

    @Override
    public void pin(long pid, List<Integer> cpus) throws AffinityException {
        if (++calls >= failFromCall) {
            throw new AffinityException("taskset -a -p -c " + CpuList.format(cpus) + " " + pid + " failed (exit 1): Operation not permitted", null);
        }
        pinned.put(pid, cpus);
        for (long tid : names.getOrDefault(pid, Map.of()).keySet()) {
            threadCpus.put(tid, cpus);
        }
    }

    @Override
    public List<ThreadAffinity> threads(long pid) {
        List<ThreadAffinity> out = new ArrayList<>();
        names.getOrDefault(pid, Map.of()).forEach((tid, name) -> out.add(new ThreadAffinity(tid, name, threadCpus.get(tid))));
        return out;
    }

    @Override
    public void pinThread(long tid, List<Integer> cpus) throws AffinityException {
        if (++calls >= failFromCall) {
            throw new AffinityException("taskset -p -c " + CpuList.format(cpus) + " " + tid + " failed (exit 1): Operation not permitted", null);
        }
        threadCalls.add(tid);
        threadCpus.put(tid, cpus);
    }
}
