package dev.rmqpatch.bench.pinning;

import dev.rmqpatch.bench.broker.ThreadCosts;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The split placement: each broker's netty IO threads, netty codec threads (stock's pipeline executor,
 * NettyServerCodecThread) and send-executor threads (SendMessageThread) on different CPUs, so that a hand-off between
 * them crosses cores, as on a many-core host where the scheduler spreads them; which thread is which comes from its
 * name ({@link ThreadCosts#groupOf}, the same groups as the per-thread figures; a JVM that does not give the kernel its
 * threads' names, as older JDK 8 builds, has all its threads in "rest"). Or, where that is impossible, why.
 *
 * <p>With n CPUs this process may use (in its own order):
 * <ul>
 * <li>n = 1: impossible.
 * <li>n = 2: IO and codec on the first CPU, send on the second. Three groups cannot all be apart on two CPUs; this keeps
 * apart the hand-off every variant has (a request from the netty side into the send executor, the response back out:
 * IO to send and back with P7, codec to send and back without it), and puts the same work on the same CPU in every
 * variant (decoding and encoding on the first, by the codec threads in stock and by the IO thread with P7; processing
 * and the store on the second), so the placement favours neither. Stock's IO-codec hand-off, the one P7 removes, stays
 * on one CPU there (charged as a same-core switch, as pinned charges it). IO and send together instead would leave
 * P7's broker no hand-off that crosses.
 * <li>n = 3: one CPU each; every hand-off crosses.
 * <li>n &gt;= 4: the lowest min(n/2, n-3) CPUs for everything else, the rest split in three: a third each for IO and
 * codec (rounded down, at least one), the remainder for send.
 * </ul>
 * Every other thread of the broker (store, replication, GC, JIT, the rest) may run on all the broker's CPUs. On 2 and 3
 * CPUs no CPU is left over, so the name servers, slaves, agents and the coordinator run on every CPU (putting them on
 * one would load that group's CPU and not the other's); from 4 on they get CPUs of their own.
 */
public final class SplitPlan {
    /** Where a broker thread goes, by its group. */
    public enum Role {
        IO("netty-io"), CODEC("netty-codec"), SEND("send"), REST("rest");

        /** The thread group's name ({@link ThreadCosts#GROUPS}); "rest" for every other group. */
        public final String label;

        Role(String label) {
            this.label = label;
        }
    }

    private final List<Integer> allowed;
    private final Map<Role, List<Integer>> cpus;
    private final List<Integer> others;
    private final String impossible;

    private SplitPlan(List<Integer> allowed, Map<Role, List<Integer>> cpus, List<Integer> others, String impossible) {
        this.allowed = allowed;
        this.cpus = cpus;
        this.others = others;
        this.impossible = impossible;
    }

    public static SplitPlan forCpus(List<Integer> allowed) {
        List<Integer> all = List.copyOf(allowed);
        Map<Role, List<Integer>> cpus = new EnumMap<>(Role.class);
        int n = all.size();
        if (n < 2) {
            return new SplitPlan(all, cpus, List.of(), "this process may use only CPU " + CpuList.format(all)
                + ": there is no second core to split a broker's threads over");
        }
        if (n == 2) {
            cpus.put(Role.IO, all.subList(0, 1));
            cpus.put(Role.CODEC, all.subList(0, 1));
            cpus.put(Role.SEND, all.subList(1, 2));
            cpus.put(Role.REST, all);
            return new SplitPlan(all, cpus, all, null);
        }
        int rest = n == 3 ? 0 : Math.min(n / 2, n - 3);
        List<Integer> broker = all.subList(rest, n);
        int third = broker.size() / 3;
        cpus.put(Role.IO, broker.subList(0, third));
        cpus.put(Role.CODEC, broker.subList(third, 2 * third));
        cpus.put(Role.SEND, broker.subList(2 * third, broker.size()));
        cpus.put(Role.REST, broker);
        return new SplitPlan(all, cpus, rest == 0 ? all : all.subList(0, rest), null);
    }

    public boolean possible() {
        return impossible == null;
    }

    public String impossibleBecause() {
        return impossible;
    }

    /** The CPUs of a role's threads; {@link Role#REST}'s are all the broker's CPUs. */
    public List<Integer> cpus(Role role) {
        return cpus.getOrDefault(role, List.of());
    }

    /** All the CPUs the brokers' threads may use. */
    public List<Integer> brokerCpus() {
        return cpus(Role.REST);
    }

    /** The CPUs of name servers, slaves, agents and the coordinator. */
    public List<Integer> otherCpus() {
        return others;
    }

    public List<Integer> allowedCpus() {
        return allowed;
    }

    /** The role of a broker thread, from the kernel's copy of its name. */
    public static Role roleOf(String threadName) {
        switch (ThreadCosts.groupOf(threadName)) {
            case "netty-io":
                return Role.IO;
            case "netty-codec":
                return Role.CODEC;
            case "send":
                return Role.SEND;
            default:
                return Role.REST;
        }
    }

    /** The CPUs each thread (id to kernel name) gets, in the given order. */
    public Map<Long, List<Integer>> assign(Map<Long, String> threads) {
        Map<Long, List<Integer>> out = new LinkedHashMap<>();
        threads.forEach((tid, name) -> out.put(tid, cpus(roleOf(name))));
        return out;
    }

    public String describe() {
        if (!possible()) {
            return "no split possible: " + impossible;
        }
        List<String> parts = new ArrayList<>();
        if (cpus(Role.IO).equals(cpus(Role.CODEC))) {
            parts.add("netty IO and codec threads on CPU " + CpuList.format(cpus(Role.IO)));
        } else {
            parts.add("netty IO threads on CPU " + CpuList.format(cpus(Role.IO)));
            parts.add("netty codec threads on CPU " + CpuList.format(cpus(Role.CODEC)));
        }
        parts.add("send threads on CPU " + CpuList.format(cpus(Role.SEND)));
        parts.add("its other threads on CPU " + CpuList.format(brokerCpus()));
        return "per broker: " + String.join(", ", parts) + "; name servers, slaves, agents and the coordinator on CPU "
            + CpuList.format(others);
    }
}
