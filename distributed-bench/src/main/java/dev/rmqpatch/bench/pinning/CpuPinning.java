package dev.rmqpatch.bench.pinning;

import dev.rmqpatch.cluster.ChildProcesses;
import dev.rmqpatch.cluster.ManagedProcess;
import java.util.ArrayList;
import java.util.List;

/**
 * Applies a {@link PinningPlan} to running processes and undoes it. Pinning is an optimisation of the measurement,
 * never a reason to fail it: where affinity cannot be set (no taskset, a container that forbids sched_setaffinity),
 * the processes are left on all CPUs, the reason is kept for the output, and later calls do nothing.
 */
public final class CpuPinning {
    private final Affinity affinity;
    private final PinningPlan plan;
    private String failure;
    private boolean pinned;
    private List<Long> lastOthers = List.of();

    public CpuPinning(Affinity affinity, PinningPlan plan) {
        this.affinity = affinity;
        this.plan = plan;
        this.failure = plan.possible() ? null : plan.impossibleBecause();
    }

    public PinningPlan plan() {
        return plan;
    }

    /** Pinning can (still) be applied. */
    public boolean available() {
        return failure == null;
    }

    /** Why pinning is not applied: impossible by plan, or the first affinity call that failed; null otherwise. */
    public String failure() {
        return failure;
    }

    public boolean pinned() {
        return pinned;
    }

    /**
     * Brokers onto the plan's broker CPUs, everything else onto the others. Returns whether that happened; on a failure
     * every process touched so far goes back to all allowed CPUs, so a half-pinned state is never measured.
     */
    public boolean pin(List<Long> brokers, List<Long> others) {
        if (!available()) {
            return false;
        }
        List<Long> touched = new ArrayList<>();
        try {
            for (long pid : brokers) {
                touched.add(pid);
                affinity.pin(pid, plan.brokerCpus());
            }
            for (long pid : others) {
                touched.add(pid);
                affinity.pin(pid, plan.otherCpus());
            }
            pinned = true;
            return true;
        } catch (Affinity.AffinityException e) {
            failure = e.getMessage();
            restore(touched);
            pinned = false;
            return false;
        }
    }

    /**
     * The run's state as wanted: the brokers on their CPUs and this process and every other child process on the others,
     * or everything back on all CPUs. Returns the state actually in force.
     */
    public boolean apply(List<Long> brokers, boolean wanted) {
        List<Long> others = new ArrayList<>();
        others.add(ProcessHandle.current().pid());
        for (ManagedProcess p : ChildProcesses.live()) {
            if (!brokers.contains(p.pid())) {
                others.add(p.pid());
            }
        }
        if (!wanted) {
            if (pinned) {
                List<Long> all = new ArrayList<>(brokers);
                all.addAll(others);
                unpin(all);
            }
            return false;
        }
        lastOthers = others;
        return pin(brokers, others);
    }

    /** The processes the last {@link #apply} put on the other CPUs. */
    public List<Long> lastOthers() {
        return lastOthers;
    }

    /** Every given process back onto all allowed CPUs. */
    public void unpin(List<Long> pids) {
        if (plan.allowedCpus().isEmpty()) {
            return;
        }
        restore(pids);
        pinned = false;
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

    /** What is pinned now, in words for the progress output and the table. */
    public String describe() {
        if (failure != null) {
            return "not pinned (" + failure + ")";
        }
        return pinned ? "pinned (" + plan.describe() + ")" : "not pinned (all processes on CPU " + CpuList.format(plan.allowedCpus()) + ")";
    }
}
