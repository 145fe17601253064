package dev.rmqpatch.jmh.report;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.OffsetDateTime;
import java.time.temporal.ChronoUnit;
import java.util.List;

/**
 * The JMH report: reads a JMH JSON result file, pairs each stock benchmark with its patched counterpart, prints
 * the table, and writes table.txt, results.json and chart.png to the output folder. scripts/jmh.sh runs it after
 * the benchmarks; it can also be run alone on any earlier jmh.json.
 */
public final class ReportMain {

    static final String USAGE = """
        Usage: java -cp benchmarks.jar dev.rmqpatch.jmh.report.ReportMain --in JMH_JSON --out DIR [--command TEXT]

        Turns a JMH JSON result file into the stock-vs-patched comparison:
          - prints the table (Markdown) to standard output and writes it to DIR/table.txt,
          - writes DIR/results.json (scores, errors, speedups, B/op, command, JDK, machine),
          - writes DIR/chart.png (time and allocation per operation, stock vs patched).
        Benchmarks pair by method name within a class and parameter set: stock / patched, or <op>Stock / <op>Patched.
        B/op needs the run to have used -prof gc; without it those columns say n/a.

        Options:
          --in FILE       JMH result file written with -rf json -rff FILE
          --out DIR       output folder, created when missing (existing files in it are overwritten)
          --command TEXT  the command that produced FILE, recorded in table.txt and results.json
          -h, --help      this text

        Exit status: 0 done, 1 unusable input file or output folder, 2 bad arguments.
        """;

    private ReportMain() {
    }

    public static void main(String[] args) {
        System.setProperty("java.awt.headless", "true");
        System.exit(run(args, System.out, System.err));
    }

    /** Runs the report; returns the exit status. */
    public static int run(String[] args, PrintStream out, PrintStream err) {
        ReportOptions options;
        try {
            options = ReportOptions.parse(args);
        } catch (UsageException e) {
            err.println("report: " + e.getMessage());
            err.println("Try --help.");
            return 2;
        }
        if (options.help()) {
            out.print(USAGE);
            return 0;
        }
        try {
            List<JmhResult> results = JmhJsonReader.read(options.in());
            if (results.isEmpty()) {
                throw new ReportInputException(options.in() + " holds no benchmark results");
            }
            Pairing.Pairs pairs = Pairing.pair(results);
            if (pairs.comparisons().isEmpty()) {
                throw new ReportInputException(options.in() + " has no stock/patched pair (" + results.size()
                    + " results, none with a counterpart); select both sides, e.g. a regex naming the class");
            }
            Path dir = options.out();
            try {
                Files.createDirectories(dir);
            } catch (IOException e) {
                throw new ReportInputException("cannot create output folder " + dir + ": " + e, e);
            }
            JmhResult.RunInfo run = pairs.comparisons().get(0).stock().run();
            // The forks' JVM, which --jvm may have set to another JDK than the one this report runs on.
            String table = "benchmarks ran on JDK " + run.jdkVersion() + " (" + run.vmName() + " " + run.vmVersion() + ")\n\n"
                + TableFormatter.format(pairs.comparisons(), pairs.unpaired());
            out.print(table);
            String recorded = table;
            if (options.command() != null) {
                recorded = "command: " + options.command() + "\n\n" + table;
            }
            MachineInfo machine = MachineInfo.current();
            OffsetDateTime now = OffsetDateTime.now().truncatedTo(ChronoUnit.SECONDS);
            try {
                Files.writeString(dir.resolve("table.txt"), recorded, StandardCharsets.UTF_8);
                ResultsJsonWriter.write(dir.resolve("results.json"), options.in().toString(), options.command(),
                    machine, pairs, now);
                ChartWriter.write(dir.resolve("chart.png"), pairs.comparisons(),
                    "JDK " + run.jdkVersion() + ", " + machine.processors() + " CPUs");
            } catch (IOException e) {
                throw new ReportInputException("cannot write to " + dir + ": " + e, e);
            } catch (RuntimeException e) {
                // XChart rejects data it cannot draw with unchecked exceptions; say so instead of a stack trace.
                throw new ReportInputException("cannot draw " + dir.resolve("chart.png") + ": " + e, e);
            }
            out.println();
            out.println("Wrote " + dir.resolve("table.txt") + ", " + dir.resolve("results.json") + ", "
                + dir.resolve("chart.png"));
            return 0;
        } catch (ReportInputException e) {
            err.println("report: " + e.getMessage());
            return 1;
        }
    }
}
