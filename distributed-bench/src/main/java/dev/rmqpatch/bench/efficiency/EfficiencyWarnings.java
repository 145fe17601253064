package dev.rmqpatch.bench.efficiency;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/** What a reader of an efficiency run must know besides the numbers: unusable windows, other load, lost sends. */
public final class EfficiencyWarnings {
    /** Other processes' CPU (cores) above which a window's machine was not quiet. */
    static final double OTHER_LOAD_LIMIT = 0.2;
    /** How a variant without a single window in a pair is named in the warnings (what a test or a user looks for). */
    public static final String TOO_BUSY = "no usable pair";
    /** How windows left out of the interval because they missed the rate are counted in the warnings (likewise). */
    public static final String MISSED_RATE = "measured window(s) missed the rate";

    private EfficiencyWarnings() {
    }

    static List<String> of(EfficiencyResults r) {
        List<String> w = new ArrayList<>();
        CpuMeasure main = CpuMeasure.main(r);
        for (EfficiencyResults.VariantResult v : r.variants) {
            EfficiencyResults.CpuFigure figure = main.of(v);
            if (figure == null || figure.windows == 0) {
                w.add(String.format(Locale.ROOT, "%s: %s %s%s: none of its measured windows went into a pair (results.json windows[] "
                    + "has each one's reason), so it has no figure; where the machine was too busy for this rate, a lower --rate or a "
                    + "quieter machine gives one", v.name, TOO_BUSY,
                    r.rateMsgPerS == null ? "at the run's rate" : String.format(Locale.ROOT, "at %,.0f msg/s", r.rateMsgPerS),
                    otherLoad(r, v.name)));
            }
            if (v.windowsNotUsable > 0) {
                w.add(String.format(Locale.ROOT, "%s: %d %s%s; their pairs are left out of the "
                    + "interval (results.json windows[] lists each with the reason)", v.name, v.windowsNotUsable, MISSED_RATE,
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

    /** The most CPU that processes outside the run used in one of the variant's measured windows, in words, or "". */
    private static String otherLoad(EfficiencyResults r, String variant) {
        Double most = null;
        for (Window x : r.windows) {
            if (Window.MEASURE.equals(x.phase) && x.variant.equals(variant) && x.otherCpuCores != null) {
                most = most == null ? x.otherCpuCores : Math.max(most, x.otherCpuCores);
            }
        }
        return most == null ? "" : String.format(Locale.ROOT, " (processes outside the run used up to %.2f cores)", most);
    }
}
