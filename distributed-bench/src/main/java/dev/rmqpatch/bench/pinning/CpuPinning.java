package dev.rmqpatch.bench.pinning;

import dev.rmqpatch.cluster.ChildProcesses;
import dev.rmqpatch.cluster.ManagedProcess;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Applies a {@link Placement} to running processes: pinned by a {@link PinningPlan}, split by a {@link SplitPlan}, or
 * undone. Pinning is an optimisation of the measurement, never a reason to fail it: where affinity cannot be set (no
 * taskset, a container that forbids sched_setaffinity), the processes are left on all CPUs, the reason is kept for the
 * output, and later calls do nothing.
 */
public final class CpuPinning {
    private final Affinity affinity;
    private final PinningPlan plan;
    private final SplitPlan split;
    private String failure;
    private Placement state = Placement.UNPINNED;
    private List<Long> lastBrokers = List.of();
    private List<Long> lastOthers = List.of();
    private final Map<Long, ThreadSplit.Report> splitReports = new LinkedHashMap<>();
    private int threadCalls;

    public CpuPinning(Affinity affinity, PinningPlan plan) {
        this.affinity = affinity;
        this.plan = plan;
        this.split = SplitPlan.forCpus(plan.allowedCpus());
        this.failure = plan.possible() ? null : plan.impossibleBecause();
    }

    public PinningPlan plan() {
        return plan;
    }

    public SplitPlan splitPlan() {
        return split;
    }

    /** Pinning can (still) be applied. */
    public boolean available() {
        return failure == null;
    }

    /** Why pinning is not applied: impossible by plan, or the first affinity call that failed; null otherwise. */
    public String failure() {
        return failure;
    }

    /** The placement in force. */
    public Placement placement() {
        return state;
    }

    public boolean pinned() {
        return state == Placement.PINNED;
    }

    /**
     * Brokers onto the plan's broker CPUs, everything else onto the others. Returns whether that happened; on a failure
     * every process given goes back to all allowed CPUs, so a half-pinned state is never measured.
     */
    public boolean pin(List<Long> brokers, List<Long> others) {
        if (!available()) {
            return false;
        }
        try {
            for (long pid : brokers) {
                affinity.pin(pid, plan.brokerCpus());
            }
            for (long pid : others) {
                affinity.pin(pid, plan.otherCpus());
            }
            state = Placement.PINNED;
            return true;
        } catch (Affinity.AffinityException e) {
            return fail(e, brokers, others);
        }
    }

    /**
     * Every other process onto the split plan's other CPUs, each broker onto its CPUs and then thread by thread (IO,
     * codec, send apart; {@link ThreadSplit}). Returns whether that happened; on a failure as {@link #pin}.
     */
    public boolean split(List<Long> brokers, List<Long> others) {
        if (!available()) {
            return false;
        }
        try {
            for (long pid : others) {
                affinity.pin(pid, split.otherCpus());
            }
            for (long pid : brokers) {
                if (state != Placement.SPLIT) {
                    affinity.pin(pid, split.brokerCpus());
                }
                place(pid);
            }
            state = Placement.SPLIT;
            lastBrokers = List.copyOf(brokers);
            return true;
        } catch (Affinity.AffinityException e) {
            return fail(e, brokers, others);
        }
    }

    /**
     * With split in force, places the threads {@code broker} started since the last time (call it at every window start:
     * new threads inherit their starter's CPUs); returns the placement in force afterwards (unpinned when that failed).
     */
    public Placement reapply(long broker) {
        if (state != Placement.SPLIT) {
            return state;
        }
        try {
            place(broker);
            return state;
        } catch (Affinity.AffinityException e) {
            fail(e, lastBrokers, lastOthers);
            return state;
        }
    }

    private void place(long broker) throws Affinity.AffinityException {
        ThreadSplit.Report r = ThreadSplit.apply(affinity, split, broker);
        threadCalls += r.calls;
        splitReports.put(broker, r);
    }

    /** Keeps the reason and puts every process involved back on all CPUs, so a half-placed state is never measured. */
    private boolean fail(Affinity.AffinityException e, List<Long> brokers, List<Long> others) {
        failure = e.getMessage();
        restore(brokers);
        restore(others);
        state = Placement.UNPINNED;
        return false;
    }

    /**
     * The run's state as wanted: the brokers pinned or split with this process and every other child process on the
     * other CPUs, or everything back on all CPUs. Returns the placement actually in force.
     */
    public Placement apply(List<Long> brokers, Placement wanted) {
        List<Long> others = new ArrayList<>();
        others.add(ProcessHandle.current().pid());
        for (ManagedProcess p : ChildProcesses.live()) {
            if (!brokers.contains(p.pid())) {
                others.add(p.pid());
            }
        }
        if (wanted == Placement.UNPINNED) {
            if (state != Placement.UNPINNED) {
                List<Long> all = new ArrayList<>(brokers);
                all.addAll(others);
                unpin(all);
            }
            return state;
        }
        lastOthers = others;
        if (wanted == Placement.PINNED) {
            pin(brokers, others);
        } else {
            split(brokers, others);
        }
        return state;
    }

    /** The processes the last {@link #apply} put on the other CPUs. */
    public List<Long> lastOthers() {
        return lastOthers;
    }

    /** Per broker pid, what the last split application (or re-application) found. */
    public Map<Long, ThreadSplit.Report> splitReports() {
        return splitReports;
    }

    /** Single-thread taskset calls over the run. */
    public int threadCalls() {
        return threadCalls;
    }

    /** Every given process back onto all allowed CPUs. */
    public void unpin(List<Long> pids) {
        if (plan.allowedCpus().isEmpty()) {
            return;
        }
        restore(pids);
        state = Placement.UNPINNED;
    }

    private void restore(List<Long> pids) {
        for (long pid : pids) {
            try {
                affinity.pin(pid, plan.allowedCpus());
            } catch (Affinity.AffinityException e) {
                if (failure == null) {
                    failure = e.getMessage();
                }
            }
        }
    }

    /** What is in force now, in words for the progress output and the table. */
    public String describe() {
        if (failure != null) {
            return "not pinned (" + failure + ")";
        }
        switch (state) {
            case PINNED:
                return "pinned (" + plan.describe() + ")";
            case SPLIT:
                return "split (" + split.describe() + ")";
            default:
                return "not pinned (all processes on CPU " + CpuList.format(plan.allowedCpus()) + ")";
        }
    }
}
