package dev.rmqpatch.bench.efficiency;

import dev.rmqpatch.bench.report.Format;
import dev.rmqpatch.bench.report.Table;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/** The text that compare --efficiency --runs N prints at the end and writes to table.txt. */
final class AcrossRunsTable {
    /** The latency column of the across-run tables: each percentile's highest run. */
    static final String HIGHEST_LATENCY = Format.LATENCY_HEADER + " (highest run)";

    private AcrossRunsTable() {
    }

    static String render(AcrossRunsResults a) {
        StringBuilder s = new StringBuilder();
        CpuMeasure main = a.mainFigure == null ? CpuMeasure.BROKER : CpuMeasure.valueOf(a.mainFigure);
        s.append(String.format(Locale.ROOT, "efficiency across %d run(s) of %d: %s CPU per message, ratio to %s%n", a.runsCompleted,
            a.runsPlanned, main == CpuMeasure.PAIR ? "SYNC_MASTER + SLAVE" : "broker", a.baseline));
        List<String[]> runs = new ArrayList<>();
        runs.add(new String[] {"run", "status", "order", "msg/s", "placement", "pairs", "variant", main.label + " x", "95% CI (t)",
            "95% CI (bootstrap)", Format.LATENCY_HEADER});
        for (AcrossRunsResults.RunEntry e : a.runs) {
            // The baseline has no ratio but has its latency: every variant of the run gets a row.
            List<String> names = new ArrayList<>(e.latencyMs.keySet());
            e.ratios.keySet().stream().filter(n -> !names.contains(n)).forEach(names::add);
            boolean first = true;
            for (String name : names) {
                var byFigure = e.ratios.get(name);
                AcrossRunsResults.RunRatio r = byFigure == null ? null : byFigure.get(main.field);
                boolean base = name.equals(a.baseline);
                runs.add(new String[] {first ? Integer.toString(e.run) : "", first ? e.status : "", first ? String.join(",", e.order) : "",
                    first ? Format.num(e.rateMsgPerS, 0) : "", first ? String.valueOf(e.placement) : "",
                    first ? Integer.toString(e.pairsMeasured) : "", name, base ? "" : r == null ? "-" : EfficiencyTable.ratio(r.ratio),
                    base ? "" : r == null ? "-" : EfficiencyTable.interval(r.ratioCi95),
                    base ? "" : r == null ? "-" : EfficiencyTable.interval(r.ratioCi95Bootstrap), Format.latency(e.latencyMs.get(name))});
                first = false;
            }
            if (first) {
                runs.add(new String[] {Integer.toString(e.run), e.status, String.join(",", e.order), Format.num(e.rateMsgPerS, 0),
                    String.valueOf(e.placement), Integer.toString(e.pairsMeasured), "-", "-", "-", "-", "-"});
            }
        }
        s.append(Table.render(runs)).append('\n');
        List<String[]> rows = new ArrayList<>();
        List<String> header = new ArrayList<>(List.of("variant", main.label + " us/msg (run medians)", "x " + a.baseline + " across runs",
            "95% CI (t over runs)", "+/-", "sd of run log ratios", "runs", "verdict", HIGHEST_LATENCY));
        rows.add(header.toArray(new String[0]));
        for (CpuMeasure m : main.reported()) {
            for (AcrossRunsResults.VariantAcrossRuns v : a.variants) {
                AcrossRunsResults.AcrossFigure f = v.figures.get(m.field);
                if (f == null) {
                    continue;
                }
                List<String> medians = new ArrayList<>();
                f.runMedians.forEach(x -> medians.add(Format.num(x, 1)));
                boolean base = v.name.equals(a.baseline);
                rows.add(new String[] {m == main ? v.name : v.name + " (" + m.label + ")", String.join(" / ", medians),
                    base ? "" : EfficiencyTable.ratio(f.ratio), base ? "" : EfficiencyTable.interval(f.ratioCi95),
                    base || f.halfWidth == null ? "" : String.format(Locale.ROOT, "%.1f%%", f.halfWidth * 100),
                    base ? "" : Format.num(f.sdLogRatio, 4), Integer.toString(f.runs), base ? "" : String.valueOf(f.verdict),
                    m == main ? latency(v.highestLatencyMs) : ""});
            }
        }
        s.append(Table.render(rows));
        s.append(cells(a, main));
        s.append(AcrossRunsResults.ESTIMATOR).append('\n');
        s.append(Format.LATENCY_HEADER).append(": send latency of the variant's windows, their histograms merged, per run; across runs each "
            + "percentile's highest run (the runs' histograms are not kept to merge, and a median would hide the run whose latency rose)\n");
        s.append("each run's own table, chart and results.json: run-<k>/\n");
        for (String w : a.warnings) {
            s.append("WARNING: ").append(w).append('\n');
        }
        return s.toString();
    }

    /** Every cell across runs (main figure): the runs' rates, placement, and per variant the ratio with its interval. */
    static String cells(AcrossRunsResults a, CpuMeasure main) {
        if (a.cells.size() < 2) {
            return "";
        }
        List<String[]> rows = new ArrayList<>();
        rows.add(new String[] {"rate", "msg/s per run", "% of saturation per run", "placement", "variant", "x " + a.baseline + " across runs",
            "95% CI (t over runs)", "+/-", "runs", "verdict", HIGHEST_LATENCY});
        for (AcrossRunsResults.CellAcrossRuns c : a.cells) {
            List<String> rates = new ArrayList<>();
            c.runRatesMsgPerS.forEach(x -> rates.add(Format.num(x, 0)));
            List<String> percents = new ArrayList<>();
            c.runPercentsOfSaturation.forEach(x -> percents.add(x == null ? "-" : Format.num(x, 0)));
            boolean first = true;
            for (AcrossRunsResults.VariantAcrossRuns v : c.variants) {
                AcrossRunsResults.AcrossFigure f = v.figures.get(main.field);
                if (f == null) {
                    continue;
                }
                // The baseline's row has no ratio, but its latency is the one the others' is read against.
                boolean base = v.name.equals(a.baseline);
                rows.add(new String[] {first ? Integer.toString(c.rateRank) : "", first ? String.join(" / ", rates) : "",
                    first ? String.join(" / ", percents) : "", first ? c.placement : "", v.name, base ? "" : EfficiencyTable.ratio(f.ratio),
                    base ? "" : EfficiencyTable.interval(f.ratioCi95),
                    base || f.halfWidth == null ? "" : String.format(Locale.ROOT, "%.1f%%", f.halfWidth * 100),
                    Integer.toString(f.runs), base ? "" : String.valueOf(f.verdict), latency(v.highestLatencyMs)});
                first = false;
            }
        }
        return "\nevery cell across runs (rate 1 = each run's lowest rate of the curve; " + main.label
            + " CPU per message; t interval over the runs' ratios of the cell; latency: the cell's highest run)\n" + Table.render(rows);
    }

    static String latency(AcrossRunsResults.HighestLatency h) {
        return h == null ? "-" : Format.latency(h.p50, h.p99, h.p999);
    }
}
