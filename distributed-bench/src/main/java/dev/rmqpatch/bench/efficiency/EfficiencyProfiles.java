package dev.rmqpatch.bench.efficiency;

import dev.rmqpatch.bench.profile.AsyncProfiler;
import dev.rmqpatch.bench.profile.CollapsedStacks;
import dev.rmqpatch.bench.profile.ProfileSet;
import dev.rmqpatch.bench.profile.SamplingEvent;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;

/**
 * --profile in efficiency mode, after the profiled pairs ran: each broker's or, with --clients, each client's (and, in
 * ms-sync, each slave's) collected
 * stacks into flame graphs, the area table and the results' profile views.
 */
final class EfficiencyProfiles {
    private EfficiencyProfiles() {
    }

    /** Writes the profiles under {@code outDir} and into {@code results}; returns the profile table(s) for table.txt. */
    static String write(List<BrokerUnderTest> brokers, List<String> names, String baseline, SamplingEvent event, int profiledPairs,
        Path outDir, EfficiencyResults results) throws IOException, AsyncProfiler.ProfilerException {
        String how = "profiled windows are separate from the interval's: " + profiledPairs + " more pairs after the measured ones, same "
            + "rate and order, every variant alike";
        ProfileSet set = new ProfileSet(results.clients != null ? "client" : "broker", names, baseline, event, how);
        for (BrokerUnderTest b : brokers) {
            if (b.profiler == null) {
                continue;
            }
            Path raw = outDir.resolve("profile/raw/" + b.variant + ".collapsed");
            if (b.profiler.dump(raw)) {
                set.add(b.variant, CollapsedStacks.read(raw), b.profiledWindows);
            }
        }
        set.write(outDir);
        for (EfficiencyResults.VariantResult v : results.variants) {
            v.profile = set.variantViews().get(v.name);
        }
        results.profile = set.comparison();
        String table = set.table();
        if (brokers.stream().anyMatch(b -> b.slaveProfiler != null)) {
            // The slaves as a set of their own ("<variant>-slave"): flame graphs, areas and top methods side by side.
            List<String> slaveNames = names.stream().map(EfficiencyProfiles::slaveName).toList();
            ProfileSet slaves = new ProfileSet("slave", slaveNames, slaveName(baseline), event, how);
            for (BrokerUnderTest b : brokers) {
                Path raw = outDir.resolve("profile/raw/" + slaveName(b.variant) + ".collapsed");
                if (b.slaveProfiler != null && b.slaveProfiler.dump(raw)) {
                    slaves.add(slaveName(b.variant), CollapsedStacks.read(raw), b.slaveProfiler.windows());
                }
            }
            slaves.write(outDir);
            for (EfficiencyResults.VariantResult v : results.variants) {
                v.slaveProfile = slaves.variantViews().get(slaveName(v.name));
            }
            results.slaveProfile = slaves.comparison();
            table += "\n" + slaves.table();
        }
        return table;
    }

    private static String slaveName(String variant) {
        return variant + "-slave";
    }
}
