package dev.rmqpatch.bench.efficiency;

import dev.rmqpatch.bench.pinning.CpuList;
import dev.rmqpatch.bench.pinning.CpuPinning;
import dev.rmqpatch.bench.pinning.PinMode;
import dev.rmqpatch.bench.pinning.Placement;
import dev.rmqpatch.bench.pinning.SplitPlan;
import dev.rmqpatch.bench.pinning.ThreadSplit;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/** What results.json and the table say about the placements: their description, and the split placement's record. */
final class PlacementRecord {

    private PlacementRecord() {
    }

    /** The measured placements in words, e.g. "... in the pinned cells; nothing pinned in the unpinned ones". */
    static String describe(List<Placement> placements, CpuPinning pinning) {
        if (placements.size() == 1) {
            switch (placements.get(0)) {
                case PINNED:
                    return "pinned (" + pinning.plan().describe() + ")";
                case SPLIT:
                    return "split (" + pinning.splitPlan().describe() + ")";
                default:
                    return "not pinned (all processes on CPU " + CpuList.format(pinning.plan().allowedCpus()) + ")";
            }
        }
        List<String> parts = new ArrayList<>();
        for (Placement p : placements) {
            switch (p) {
                case PINNED:
                    parts.add(pinning.plan().describe() + " in the pinned cells");
                    break;
                case SPLIT:
                    parts.add("each broker's netty IO, codec and send threads apart in the split cells (CPUs: pinning.split, the "
                        + "table's split line)");
                    break;
                default:
                    parts.add("nothing pinned in the unpinned ones");
            }
        }
        return String.join("; ", parts);
    }

    /** The split placement's CPUs, when --pin has it; null otherwise. */
    static EfficiencyResults.Split planned(PinMode mode, SplitPlan plan) {
        if (!mode.has(Placement.SPLIT)) {
            return null;
        }
        EfficiencyResults.Split s = new EfficiencyResults.Split();
        if (!plan.possible()) {
            s.notAppliedBecause = plan.impossibleBecause();
            return s;
        }
        s.ioCpus = plan.cpus(SplitPlan.Role.IO);
        s.codecCpus = plan.cpus(SplitPlan.Role.CODEC);
        s.sendCpus = plan.cpus(SplitPlan.Role.SEND);
        s.brokerCpus = plan.brokerCpus();
        s.otherCpus = plan.otherCpus();
        s.description = plan.describe();
        return s;
    }

    /** Each broker's threads as the last split placement read them back, by variant ({@code pids} in variant order). */
    static void update(EfficiencyResults.Split s, CpuPinning pinning, List<String> variants, List<Long> pids) {
        if (s == null) {
            return;
        }
        s.threadCalls = pinning.threadCalls();
        s.brokers.clear();
        for (int i = 0; i < pids.size(); i++) {
            ThreadSplit.Report r = pinning.splitReports().get(pids.get(i));
            if (r == null) {
                continue;
            }
            EfficiencyResults.SplitBroker b = new EfficiencyResults.SplitBroker();
            b.variant = variants.get(i);
            b.pid = pids.get(i);
            for (SplitPlan.Role role : SplitPlan.Role.values()) {
                b.groups.put(role.label, r.placed(role));
            }
            b.notPlaced = r.notPlaced;
            s.brokers.add(b);
        }
    }

    /** A broker whose threads could not be told apart by name was not split: say so (older JDK 8 builds leave them unnamed). */
    static List<String> warnings(EfficiencyResults.Split s) {
        List<String> w = new ArrayList<>();
        if (s == null) {
            return w;
        }
        for (EfficiencyResults.SplitBroker b : s.brokers) {
            int io = b.groups.getOrDefault(SplitPlan.Role.IO.label, 0);
            int send = b.groups.getOrDefault(SplitPlan.Role.SEND.label, 0);
            if (io == 0 || send == 0) {
                w.add(String.format(Locale.ROOT, "%s: the split placement found %d netty IO and %d send thread(s) by name (older JDK 8 builds do not "
                    + "give the kernel Java thread names), so its threads were not split apart: its split cells measure it with every thread "
                    + "on CPU %s", b.variant, io, send, CpuList.format(s.brokerCpus)));
            }
        }
        return w;
    }
}
