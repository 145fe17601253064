package dev.rmqpatch.bench.efficiency;

import dev.rmqpatch.bench.stats.LatencySummary;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The results.json of {@code compare --efficiency --runs N}: each run's own results are in {@code run-<k>/}; this file
 * lists each run's ratios and the ratio across runs (docs/harness/results-json.md).
 */
public final class AcrossRunsResults {
    public static final String ESTIMATOR = "across runs: geometric mean of the runs' ratios (each run's own paired estimate), 95% CI = "
        + "Student-t over the runs' log ratios (n - 1 degrees of freedom); resolved = the CI excludes 1.0 over at least "
        + AcrossRunsResults.MIN_RUNS_FOR_VERDICT + " runs. Each run has fresh brokers, agents, stores, warm-up and rate probe, and "
        + "the variants' order rotated by one, so the interval includes what changes from run to run";
    public static final int MIN_RUNS_FOR_VERDICT = 3;

    /** "ok", "failed" (with error; the runs completed are still here) or "running". */
    public String status = "running";
    public String error;
    public final String mode = "efficiency";
    public int runsPlanned;
    public int runsCompleted;
    public String baseline;
    /** As in one run's results: BROKER, or PAIR in ms-sync. */
    public String mainFigure;
    public String estimator = ESTIMATOR;
    public List<RunEntry> runs = new ArrayList<>();
    /** The headline across runs: each run's headline cell (its checked rate, its less favourable placement). */
    public List<VariantAcrossRuns> variants = new ArrayList<>();
    /**
     * Every cell across runs: the runs' cells matched by their place in the rate curve (the lowest rate of each run, the
     * next, ...) and their placement, each with the t interval over the runs' ratios of that cell.
     */
    public List<CellAcrossRuns> cells = new ArrayList<>();
    public List<String> warnings = new ArrayList<>();
    public Map<String, Object> metadata = new LinkedHashMap<>();

    /** One run, as its own results.json summarises it. */
    public static final class RunEntry {
        public int run;
        /** Its output folder, relative to this file. */
        public String folder;
        public String status;
        public List<String> order;
        public Double rateMsgPerS;
        /** Whether its headline's windows ran pinned. */
        public Boolean pinned;
        /** Its headline's placement: pinned, split or unpinned. */
        public String placement;
        public int pairsMeasured;
        /** Per variant (not the baseline) and figure: that run's ratio and intervals. */
        public Map<String, Map<String, RunRatio>> ratios = new LinkedHashMap<>();
        /** Per variant, the baseline too: send latency of its headline windows, their histograms merged (the run's latencyMs). */
        public Map<String, LatencySummary> latencyMs = new LinkedHashMap<>();
    }

    /** One figure of one variant in one run. */
    public static final class RunRatio {
        public Double ratio;
        /** The run's own intervals: Student-t over its pairs, and the bootstrap check. */
        public double[] ratioCi95;
        public double[] ratioCi95Bootstrap;
        public Integer pairs;
    }

    /** One variant across the runs, per figure (brokerCpuUsPerMsg; in ms-sync pairCpuUsPerMsg and slaveCpuUsPerMsg too). */
    public static final class VariantAcrossRuns {
        public String name;
        public Map<String, AcrossFigure> figures = new LinkedHashMap<>();
        /** The least favourable send latency over the completed runs (of this cell, or of their headlines). */
        public HighestLatency highestLatencyMs;
    }

    /**
     * Each percentile's highest value over the completed runs, ms (each run's from its windows' merged histograms): a bound
     * on what any run saw, not the percentiles of one distribution (a p99 and a p99.9 may come from different runs). The
     * runs' histograms are not kept, so they cannot be merged; and a median over a few runs would hide the one run whose
     * latency rose, which is what a CPU saving quoted beside it must not do.
     */
    public static final class HighestLatency {
        public Double p50;
        public Double p99;
        public Double p999;
        public Double max;
        /** Runs that had a latency figure for it. */
        public int runs;
    }

    /** One cell (rate of the curve x placement) across the runs. */
    public static final class CellAcrossRuns {
        /** 1 for the lowest rate of each run's curve, 2 for the next, ... */
        public int rateRank;
        /** "pinned", "split" or "unpinned". */
        public String placement;
        /** Each completed run's rate for this cell and its percentage of that run's slowest saturation (null with --rate). */
        public List<Double> runRatesMsgPerS = new ArrayList<>();
        public List<Double> runPercentsOfSaturation = new ArrayList<>();
        /** Whether the cell was a run's headline, per run. */
        public List<Boolean> runHeadline = new ArrayList<>();
        public List<VariantAcrossRuns> variants = new ArrayList<>();
    }

    /** The runs' ratios of one figure and their mean with its interval. */
    public static final class AcrossFigure {
        /** Each completed run's ratio, in run order; a run without one is left out. */
        public List<Double> runRatios = new ArrayList<>();
        /** Each run's median CPU us/msg of this variant. */
        public List<Double> runMedians = new ArrayList<>();
        public Double ratio;
        /** [low, high], Student-t over the runs' log ratios; null below two runs. */
        public double[] ratioCi95;
        public Double halfWidth;
        /** Standard deviation of the runs' log ratios: the scatter from run to run. */
        public Double sdLogRatio;
        public int runs;
        public String verdict;
    }
}
