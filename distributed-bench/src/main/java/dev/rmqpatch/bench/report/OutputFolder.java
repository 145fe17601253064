package dev.rmqpatch.bench.report;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;

/** The end of a comparison, whatever its mode: results.json, table.txt and chart.png, then the table on the console. */
public final class OutputFolder {

    /** Draws the run's chart into the given PNG file. */
    public interface Chart {
        void write(Path png) throws IOException;
    }

    private OutputFolder() {
    }

    /**
     * Writes the three files into {@code dir} and prints the table, the run's error if any, and where the files are.
     * A failure to write is printed, not thrown: the run's figures are on the console either way.
     */
    public static void write(PrintStream out, Path dir, Object results, String table, Chart chart, String error,
                             boolean profiled, String elapsed) {
        try {
            ResultsFile.write(dir.resolve("results.json"), results);
            Files.writeString(dir.resolve("table.txt"), table);
            chart.write(dir.resolve("chart.png"));
            out.println();
            out.print(table);
            if (error != null) {
                out.println("ERROR: " + error);
            }
            out.printf("%nresults: %s (chart.png, table.txt%s; %s elapsed)%n", dir.resolve("results.json"),
                profiled ? ", flame-<variant>.html" : "", elapsed);
        } catch (IOException | RuntimeException e) {
            out.println("could not write the results to " + dir + ": " + e);
        }
    }
}
