package dev.rmqpatch.bench.pinning;

import java.util.List;

/**
 * Which CPUs the measured brokers get and which everything else (name servers, slaves, agents, jstat, the coordinator)
 * gets: the upper half of the CPUs this process may use for the brokers, the lower half for the rest, so on two cores
 * the broker has core 1 to itself and its CPU per message is not mixed with the agent's scheduling. Or, where that is
 * impossible, why.
 */
public final class PinningPlan {
    private final List<Integer> allowed;
    private final List<Integer> brokerCpus;
    private final List<Integer> otherCpus;
    private final String impossible;

    private PinningPlan(List<Integer> allowed, List<Integer> brokerCpus, List<Integer> otherCpus, String impossible) {
        this.allowed = allowed;
        this.brokerCpus = brokerCpus;
        this.otherCpus = otherCpus;
        this.impossible = impossible;
    }

    /** The plan for this process's allowed CPUs, or an impossible plan saying why they cannot be read. */
    public static PinningPlan of(Affinity affinity) {
        try {
            return forCpus(affinity.allowedCpus());
        } catch (Affinity.AffinityException e) {
            return new PinningPlan(List.of(), List.of(), List.of(), e.getMessage());
        }
    }

    public static PinningPlan forCpus(List<Integer> allowed) {
        List<Integer> cpus = List.copyOf(allowed);
        if (cpus.size() < 2) {
            return new PinningPlan(cpus, List.of(), List.of(), "this process may use only CPU " + CpuList.format(cpus)
                + ": there is no core to give the brokers for themselves");
        }
        int split = cpus.size() / 2;
        return new PinningPlan(cpus, cpus.subList(split, cpus.size()), cpus.subList(0, split), null);
    }

    public boolean possible() {
        return impossible == null;
    }

    /** Why pinning is impossible; null when it is possible. */
    public String impossibleBecause() {
        return impossible;
    }

    public List<Integer> allowedCpus() {
        return allowed;
    }

    public List<Integer> brokerCpus() {
        return brokerCpus;
    }

    public List<Integer> otherCpus() {
        return otherCpus;
    }

    /** What the JVMs are told with -XX:ActiveProcessorCount: the count they would see unpinned. */
    public int machineCpus() {
        return Math.max(1, allowed.size());
    }

    public String describe() {
        if (!possible()) {
            return "no pinning possible: " + impossible;
        }
        return "brokers on CPU " + CpuList.format(brokerCpus) + ", name servers, agents and the coordinator on CPU " + CpuList.format(otherCpus);
    }
}
