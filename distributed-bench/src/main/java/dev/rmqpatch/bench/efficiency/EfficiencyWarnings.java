package dev.rmqpatch.bench.efficiency;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/** What a reader of an efficiency run must know besides the numbers: unusable windows, other load, lost sends. */
final class EfficiencyWarnings {
    /** Other processes' CPU (cores) above which a window's machine was not quiet. */
    static final double OTHER_LOAD_LIMIT = 0.2;

    private EfficiencyWarnings() {
    }

    static List<String> of(EfficiencyResults r) {
        List<String> w = new ArrayList<>();
        for (EfficiencyResults.VariantResult v : r.variants) {
            if (v.windowsNotUsable > 0) {
                w.add(String.format(Locale.ROOT, "%s: %d measured window(s) missed the rate%s; their pairs are left out of the "
                    + "interval (results.json windows[] lists each with the reason)", v.name, v.windowsNotUsable,
                    r.clients == null ? " or lost sends" : ", lost sends or handled less than the rate"));
            }
            if (v.otherCpuCores != null && v.otherCpuCores.max != null && v.otherCpuCores.max > OTHER_LOAD_LIMIT) {
                w.add(String.format(Locale.ROOT, "%s: processes outside the run used up to %.2f cores in a measured window: the machine was "
                    + "not quiet, which widens the interval", v.name, v.otherCpuCores.max));
            }
            if (v.failedSends > 0) {
                w.add(String.format(Locale.ROOT, "%s: %,d sends failed over the run", v.name, v.failedSends));
            }
        }
        // The per-variant check above sees the headline cell; this one every measured window of every cell.
        long measured = 0;
        long loaded = 0;
        double most = 0;
        for (Window x : r.windows) {
            if (Window.MEASURE.equals(x.phase)) {
                measured++;
                if (x.otherCpuCores != null && x.otherCpuCores > OTHER_LOAD_LIMIT) {
                    loaded++;
                    most = Math.max(most, x.otherCpuCores);
                }
            }
        }
        if (loaded > 0 && r.cells.size() > 1) {
            w.add(String.format(Locale.ROOT, "%d of %d measured windows (all cells) had processes outside the run using more than %.1f "
                + "cores, at most %.2f: the machine was not quiet throughout", loaded, measured, OTHER_LOAD_LIMIT, most));
        }
        if (r.status.equals("ok") && r.pairsMeasured < r.pairsPlanned) {
            w.add(String.format(Locale.ROOT, "%d of %d planned pairs were measured in the kept pinning state", r.pairsMeasured, r.pairsPlanned));
        }
        return w;
    }
}
