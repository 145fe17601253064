package dev.rmqpatch.bench.efficiency;

import dev.rmqpatch.bench.broker.ThreadCosts;
import dev.rmqpatch.bench.engine.ClientVariant;
import dev.rmqpatch.bench.pinning.Placement;
import dev.rmqpatch.bench.report.Format;
import dev.rmqpatch.bench.report.Table;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/** The text that compare --efficiency prints and writes to table.txt. */
public final class EfficiencyTable {
    private EfficiencyTable() {
    }

    public static String render(EfficiencyResults r) {
        StringBuilder s = new StringBuilder();
        CpuMeasure main = CpuMeasure.main(r);
        List<CpuMeasure> measures = main.reported();
        s.append(String.format(Locale.ROOT, "efficiency: %s CPU per message at a fixed %s msg/s (%s), %d measured pair(s) of %d s windows on "
                + "warm brokers with warm agents (client %s), variants alternating in counterbalanced order%n",
            main == CpuMeasure.PAIR ? "SYNC_MASTER + SLAVE" : main == CpuMeasure.CLIENT ? "client" : "broker", r.rateMsgPerS == null ? "-" : Format.num(r.rateMsgPerS, 0), r.rateSource == null ? "not reached" : r.rateSource,
            r.pairsMeasured, r.windowSeconds, r.clientMode == null ? "rocketmq" : r.clientMode));
        s.append("pinning: ").append(r.pinning.description == null ? "-" : r.pinning.description);
        if (r.pinning.calibration != null) {
            s.append(String.format(Locale.ROOT, " (--pin auto: per-pair scatter, sd of log ratio, pinned %s vs unpinned %s over %d pairs each)",
                Format.num(r.pinning.calibration.sdLogRatioPinned, 4), Format.num(r.pinning.calibration.sdLogRatioUnpinned, 4),
                r.pinning.calibration.pairsPerState));
        } else if (r.pinning.notAppliedBecause != null && !r.pinning.applied) {
            s.append(" (").append(r.pinning.notAppliedBecause).append(')');
        }
        if (RemoteBrokers.CPU_FROM_JMX.equals(r.cpuSource)) {
            s.append(String.format(Locale.ROOT, "%nbroker CPU: each broker JVM's ProcessCpuTime over JMX (not /proc: the brokers run on other "
                + "hosts, with the JVM options their deployment gave them)%n"));
        } else {
            s.append(String.format(Locale.ROOT, "; brokers and agents run with -XX:ActiveProcessorCount=%d%n", r.pinning.activeProcessorCount));
        }
        if (r.clients != null) {
            s.append(String.format(Locale.ROOT, "clients: the %s side, against one %s broker; each client's agent JVMs measured whole in its "
                + "own windows, the broker's CPU over the same windows beside it%n", r.clients.side, r.clients.broker));
        }
        s.append(split(r.pinning.split));
        if (r.cells.size() > 1) {
            s.append(String.format(Locale.ROOT, "headline: %s msg/s %s, the checked rate in the less favourable placement; every cell "
                + "(rate x placement) below%n", Format.num(r.rateMsgPerS, 0), headlinePlacement(r)));
        }
        s.append('\n');

        List<String[]> rows = new ArrayList<>();
        List<String> header = new ArrayList<>(List.of("variant", main.label + " us/msg", "(min-max)", "x " + r.baseline, "95% CI", "verdict",
            "+/-", "pairs"));
        for (CpuMeasure m : measures.subList(1, measures.size())) {
            header.addAll(List.of(m.label + " us/msg", "x", "95% CI"));
        }
        header.addAll(List.of(Format.LATENCY_HEADER, "stored B/msg", "msg/s", "windows not usable"));
        rows.add(header.toArray(new String[0]));
        for (EfficiencyResults.VariantResult v : r.variants) {
            EfficiencyResults.CpuFigure c = main.of(v);
            if (c == null) {
                continue;
            }
            boolean base = v.name.equals(r.baseline);
            List<String> row = new ArrayList<>(List.of(v.name, Format.num(c.median, 1),
                c.min == null ? "-" : "(" + Format.num(c.min, 1) + "-" + Format.num(c.max, 1) + ")",
                base ? "" : ratio(c.ratio), base ? "" : interval(c.ratioCi95), base ? "" : String.valueOf(c.verdict),
                base || c.halfWidth == null ? "" : String.format(Locale.ROOT, "%.1f%%", c.halfWidth * 100),
                base || c.pairs == null ? "" : Integer.toString(c.pairs)));
            for (CpuMeasure m : measures.subList(1, measures.size())) {
                EfficiencyResults.CpuFigure f = m.of(v);
                row.add(f == null ? "-" : Format.num(f.median, 1));
                row.add(f == null || base ? "" : ratio(f.ratio));
                row.add(f == null || base ? "" : interval(f.ratioCi95));
            }
            row.addAll(List.of(Format.latency(v.latencyMs), Format.num(v.storedBytesPerMsg == null ? null : v.storedBytesPerMsg.median, 1),
                Format.num(v.storedMsgPerS == null ? null : v.storedMsgPerS.median, 0), Integer.toString(v.windowsNotUsable)));
            rows.add(row.toArray(new String[0]));
        }
        s.append(Table.render(rows));
        s.append(main.label).append(" us/msg: ").append(main.meaning).append(", CPU ").append(main.perMessage)
            .append(", median over the variant's windows "
                + "in the interval; x: geometric mean of the per-pair ratios to ")
            .append(r.baseline).append("; 95% CI: Student-t over the pairs' log ratios; +/-: half its width; resolved = the CI (and the "
                + "bootstrap check) excludes 1.0 over at least " + EfficiencySummary.MIN_PAIRS_FOR_VERDICT + " pairs\n");
        for (CpuMeasure m : measures.subList(1, measures.size())) {
            s.append(m.label).append(" us/msg: ").append(m.meaning).append(", ").append(m.perMessage).append('\n');
        }
        s.append(latencyNote(r)).append('\n');
        for (EfficiencyResults.VariantResult v : r.variants) {
            EfficiencyResults.CpuFigure c = main.of(v);
            if (c != null && c.ratioCi95Bootstrap != null) {
                s.append(String.format(Locale.ROOT, "bootstrap check %s: %s (sd of per-pair log ratio %s)%n", v.name, interval(c.ratioCi95Bootstrap),
                    Format.num(c.sdLogRatio, 4)));
            }
        }
        s.append(cells(r));
        s.append(threads(r));
        if (!r.probe.saturatedMsgPerS.isEmpty()) {
            List<String> sat = new ArrayList<>();
            r.probe.saturatedMsgPerS.forEach((v, x) -> sat.add(v + " " + Format.num(x, 0)));
            s.append("saturated in the last warm-up window (unlimited, msg/s): ").append(String.join(", ", sat)).append('\n');
        }
        List<String> left = new ArrayList<>();
        for (Window w : r.windows) {
            boolean measured = Window.MEASURE.equals(w.phase) || Window.CALIBRATION.equals(w.phase);
            if (measured && headlinePlacement(r).equals(w.placement) && !w.inInterval && w.note != null) {
                left.add(String.format(Locale.ROOT, "#%d (pair %d, %s): %s", w.index, w.pair, w.variant, w.note));
            }
        }
        if (!left.isEmpty()) {
            s.append("measured windows left out of the interval: ").append(String.join("; ", left)).append('\n');
        }
        for (String w : r.warnings) {
            s.append("WARNING: ").append(w).append('\n');
        }
        return s.toString();
    }

    /** Every cell: rate, placement, pairs, and per variant its CPU per message and ratio with interval; empty with one cell. */
    static String cells(EfficiencyResults r) {
        if (r.cells.size() < 2) {
            return "";
        }
        CpuMeasure main = CpuMeasure.main(r);
        List<String[]> rows = new ArrayList<>();
        rows.add(new String[] {"msg/s", "% of slowest saturation", "placement", "pairs", "variant", main.label + " us/msg", "x " + r.baseline,
            "95% CI", "verdict", Format.LATENCY_HEADER, "cs/msg"});
        for (EfficiencyResults.CellResult c : r.cells) {
            boolean first = true;
            for (EfficiencyResults.VariantResult v : c.variants) {
                EfficiencyResults.CpuFigure f = main.of(v);
                boolean base = v.name.equals(r.baseline);
                rows.add(new String[] {first ? Format.num(c.rateMsgPerS, 0) + (c.headline ? " *" : "") : "",
                    first ? Format.num(c.percentOfSaturation, 0) : "", first ? c.placement : "",
                    first ? Integer.toString(c.pairsMeasured) : "", v.name, f == null ? "-" : Format.num(f.median, 1),
                    base || f == null ? "" : ratio(f.ratio), base || f == null ? "" : interval(f.ratioCi95),
                    base || f == null ? "" : String.valueOf(f.verdict), Format.latency(v.latencyMs),
                    v.threads == null ? "-" : Format.num(v.threads.contextSwitchesPerMsg.median, 2)});
                first = false;
            }
        }
        return "\nevery cell (* the headline; 95% CI: Student-t over the cell's pairs; " + Format.LATENCY_HEADER + ": the cell's windows' "
            + "send latency, merged; cs/msg: the broker JVM's context switches per message)\n" + Table.render(rows);
    }

    /**
     * What the latency column is: whose sends, and over which windows. On the consumer side of --clients the senders are
     * the stock load producers, so the figure is the broker's answer to them, not the consumers' end-to-end latency (which
     * the windows do not record).
     */
    static String latencyNote(EfficiencyResults r) {
        String whose = r.clients == null ? "the agents' acknowledged sends"
            : ClientVariant.Side.PRODUCER.label().equals(r.clients.side) ? "the client's own acknowledged sends"
            : "the stock load producers' acknowledged sends (not the consumers' end-to-end latency: not recorded per window)";
        return Format.LATENCY_HEADER + ": send latency of " + whose + " in the variant's interval windows, their histograms merged "
            + "(with p90, mean and max, per variant and cell, in results.json: latencyMs)";
    }

    /**
     * Per JVM (each variant's broker, and its slave in ms-sync): context switches per message and CPU per message by
     * thread group, medians over the interval's windows; empty when no window has thread figures.
     */
    static String threads(EfficiencyResults r) {
        List<String> groups = new ArrayList<>();
        for (String g : ThreadCosts.GROUPS) {
            for (EfficiencyResults.VariantResult v : r.variants) {
                for (EfficiencyResults.ThreadFigures t : Arrays.asList(v.threads, v.slaveThreads, v.clientThreads)) {
                    if (t != null && t.groupCpuUsPerMsg.containsKey(g) && !groups.contains(g)) {
                        groups.add(g);
                    }
                }
            }
        }
        List<String[]> rows = new ArrayList<>();
        List<String> header = new ArrayList<>(List.of("JVM", "cs/msg", "voluntary", "involuntary", "io reads", "io writes"));
        for (String g : groups) {
            header.add(g + " us");
        }
        rows.add(header.toArray(new String[0]));
        for (EfficiencyResults.VariantResult v : r.variants) {
            addThreadRow(rows, r.clients == null ? v.name : v.name + " broker", v.threads, groups);
            addThreadRow(rows, v.name + " slave", v.slaveThreads, groups);
            addThreadRow(rows, v.name + " client", v.clientThreads, groups);
        }
        if (rows.size() == 1) {
            return "";
        }
        return "\nthreads per message " + (r.clients == null ? "stored" : "stored (client: per message it handled)") + " (medians over the interval's windows, from /proc/PID/task): context switches, "
            + "the netty IO threads' read and write system calls (io reads 0.5: two messages per socket read), and CPU us by thread group "
            + "(from the thread names; older JDK 8 builds leave most threads unnamed: \"other\")\n" + Table.render(rows);
    }

    private static void addThreadRow(List<String[]> rows, String jvm, EfficiencyResults.ThreadFigures t, List<String> groups) {
        if (t == null) {
            return;
        }
        List<String> row = new ArrayList<>(List.of(jvm, Format.num(t.contextSwitchesPerMsg.median, 2),
            Format.num(t.voluntarySwitchesPerMsg.median, 2), Format.num(t.involuntarySwitchesPerMsg.median, 2),
            callsOf(t.groupReadCallsPerMsg.get("netty-io")), callsOf(t.groupWriteCallsPerMsg.get("netty-io"))));
        for (String g : groups) {
            EfficiencyResults.WindowStats c = t.groupCpuUsPerMsg.get(g);
            row.add(c == null ? "-" : Format.num(c.median, 1));
        }
        rows.add(row.toArray(new String[0]));
    }

    private static String callsOf(EfficiencyResults.WindowStats calls) {
        return calls == null || calls.median == null ? "-" : Format.num(calls.median, 2);
    }

    private static String headlinePlacement(EfficiencyResults r) {
        return r.pinning.placement == null ? Placement.UNPINNED.label : r.pinning.placement;
    }

    /** The split placement's line: its CPUs and, per broker, the threads of each group the last placement read back there. */
    static String split(EfficiencyResults.Split split) {
        if (split == null) {
            return "";
        }
        if (split.notAppliedBecause != null) {
            return "split: not applied, or stopped (" + split.notAppliedBecause + ")\n";
        }
        List<String> brokers = new ArrayList<>();
        for (EfficiencyResults.SplitBroker b : split.brokers) {
            List<String> groups = new ArrayList<>();
            b.groups.forEach((g, n) -> groups.add(g + " " + n));
            brokers.add(b.variant + " " + String.join(", ", groups));
        }
        return "split: " + split.description + (brokers.isEmpty() ? "" : "; threads placed (read back from /proc): "
            + String.join("; ", brokers)) + "\n";
    }

    static String ratio(Double v) {
        return v == null ? "-" : String.format(Locale.ROOT, "%.3f", v);
    }

    static String interval(double[] ci) {
        return ci == null ? "-" : String.format(Locale.ROOT, "[%.3f, %.3f]", ci[0], ci[1]);
    }
}
