package dev.rmqpatch.bench.command;

import dev.rmqpatch.bench.cli.UsageException;
import dev.rmqpatch.bench.efficiency.Resummary;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;

/** {@code summarize DIR}: an efficiency output folder's figures recomputed from its recorded windows ({@link Resummary}). */
public final class SummarizeCommand {

    private SummarizeCommand() {
    }

    public static String helpText() {
        return String.join("\n",
            "Usage: java -jar distributed-bench/target/distributed-bench.jar summarize DIR",
            "",
            "Rebuilds results.json, table.txt and chart.png of DIR, the output folder of compare --efficiency (one run, or",
            "--runs N with its run-<k>/ folders), from the windows it recorded, with the statistics of this build: what a",
            "fix of the summary code changes in a measured run, without measuring again. The windows, the rate probe, the",
            "pinning record and the metadata stay the run's own; metadata.resummarized records when it happened. A profiled",
            "run is refused (its profile table comes from the profiles). Nothing starts; nothing but those files changes.",
            "",
            "-h, --help: this text. Exit status: 0 rewritten; 1 it could not be; 2 wrong arguments.");
    }

    public static int run(String[] args, PrintStream out) throws UsageException, IOException {
        if (args.length != 1 || args[0].startsWith("-")) {
            throw new UsageException(args.length == 1 ? "unknown option '" + args[0] + "'" : "give one output folder: summarize DIR");
        }
        Path dir = Path.of(args[0]);
        if (!Files.isDirectory(dir)) {
            throw new UsageException("no folder " + dir.toAbsolutePath().normalize());
        }
        try {
            Resummary.rewrite(dir, out);
        } catch (IllegalArgumentException e) {
            System.err.println("bench summarize: " + e.getMessage());
            return 1;
        }
        return 0;
    }
}
