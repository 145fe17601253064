package dev.rmqpatch.bench.command;

import dev.rmqpatch.bench.cli.Args;
import dev.rmqpatch.bench.cli.Flag;
import dev.rmqpatch.bench.cli.FlagSet;
import dev.rmqpatch.bench.cli.UsageException;
import dev.rmqpatch.bench.compare.ChartWriter;
import dev.rmqpatch.bench.compare.CompareResults;
import dev.rmqpatch.bench.compare.SaturationPlan;
import dev.rmqpatch.bench.compare.SaturationRounds;
import dev.rmqpatch.bench.engine.Variant;
import dev.rmqpatch.bench.report.OutputFolder;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code rounds}: the saturation comparison's rounds for a runner elsewhere (scripts/run-distributed.sh --variants A,B):
 * their order, and their merge into one results.json, table.txt and chart.png ({@link SaturationRounds}).
 */
public final class RoundsCommand {
    static final Flag<Path> MERGE = Flag.path("--merge", "DIR", "merge the rounds in DIR/runs/<round>-<variant>/results.json (bench "
        + "run's output, one per round) into DIR/results.json, table.txt and chart.png, with compare's saturation statistics");
    static final Flag<String> COMMAND = Flag.text("--command", "TEXT", "with --merge: the command line that ran the rounds, as "
        + "results.json records it");
    static final Flag<Boolean> RUNNING = Flag.toggle("--running", "with --merge: more rounds are to come (status \"running\"); "
        + "without it a round that is missing or failed makes the status \"failed\"");

    static final FlagSet FLAGS = new FlagSet("Usage: bench rounds --variants A,B[,...] [--rounds N] [--baseline V] [--merge DIR "
        + "[--command TEXT] [--running]]", String.join("\n",
        "The saturation comparison's rounds run by something else: scripts/run-distributed.sh --variants A,B starts a fresh",
        "cluster of one variant on its hosts for each run and runs bench run against it. Without --merge: checks the variants",
        "and prints the baseline (\"baseline V\") and the order of the runs, one \"run ROUND VARIANT\" line each, in the",
        "order compare's saturation plan runs them. With --merge: the merged results of the rounds there so far.",
        "",
        "Variants are named as compare names them (\"Variants above\" below means compare --help's list)."))
        .section("Options:", CompareCommand.VARIANTS.defaultingTo(null, "none: give two or more"), SaturationPlan.ROUNDS,
            CompareCommand.BASELINE, MERGE, COMMAND, RUNNING)
        .epilogue("-h, --help: this text. Exit status: 0 ok; 1 the merge could not be written; 2 wrong arguments.");

    private RoundsCommand() {
    }

    public static String helpText() {
        return FLAGS.help();
    }

    /** What was asked: the variants, rounds and baseline, checked. */
    record Rounds(List<String> variants, int rounds, String baseline) {
    }

    static Rounds parse(Args a) throws UsageException {
        if (!a.has(CompareCommand.VARIANTS)) {
            throw new UsageException("give the variants: --variants A,B");
        }
        List<String> names = new ArrayList<>();
        for (String n : a.get(CompareCommand.VARIANTS).split(",")) {
            if (!n.isBlank()) {
                names.add(n.trim());
            }
        }
        if (names.size() < 2) {
            throw new UsageException("--variants needs at least two variants, comma-separated (e.g. 4.9.0-tuned,4.9.0-patched), not '"
                + a.get(CompareCommand.VARIANTS) + "'");
        }
        for (String n : names) {
            try {
                Variant.parse(n);
            } catch (IllegalArgumentException e) {
                throw new UsageException(e.getMessage());
            }
        }
        int rounds = a.get(SaturationPlan.ROUNDS);
        try {
            SaturationRounds.schedule(names, rounds);
        } catch (IllegalArgumentException e) {
            throw new UsageException(e.getMessage());
        }
        String baseline = a.has(CompareCommand.BASELINE) ? a.get(CompareCommand.BASELINE) : CompareCommand.defaultBaseline(names);
        if (!names.contains(baseline)) {
            throw new UsageException("--baseline " + baseline + " is not one of the variants " + names);
        }
        if ((a.has(COMMAND) || a.has(RUNNING)) && !a.has(MERGE)) {
            throw new UsageException("--command and --running go with --merge");
        }
        return new Rounds(names, rounds, baseline);
    }

    public static int run(String[] args, PrintStream out) throws UsageException, IOException {
        Args a = FLAGS.parse(args);
        Rounds r = parse(a);
        if (!a.has(MERGE)) {
            out.println("baseline " + r.baseline());
            SaturationRounds.schedule(r.variants(), r.rounds()).forEach(run -> out.println("run " + run));
            return 0;
        }
        Path dir = a.get(MERGE).toAbsolutePath().normalize();
        if (!Files.isDirectory(dir)) {
            throw new UsageException("no folder " + dir);
        }
        long started = System.nanoTime();
        CompareResults results;
        try {
            results = SaturationRounds.merge(dir, r.variants(), r.baseline(), r.rounds(), a.get(COMMAND), a.get(RUNNING));
        } catch (IllegalArgumentException | com.google.gson.JsonParseException e) {
            System.err.println("bench rounds: " + e.getMessage());
            return 1;
        }
        OutputFolder.write(out, dir, results, SaturationRounds.table(results), png -> ChartWriter.write(results, png), results.error, false,
            String.format(java.util.Locale.ROOT, "%.1f s", (System.nanoTime() - started) / 1e9));
        return Files.isRegularFile(dir.resolve("results.json")) ? 0 : 1;
    }
}
