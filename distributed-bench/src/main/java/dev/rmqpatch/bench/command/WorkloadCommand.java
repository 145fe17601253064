package dev.rmqpatch.bench.command;

import dev.rmqpatch.bench.cli.Args;
import dev.rmqpatch.bench.cli.FlagSet;
import dev.rmqpatch.bench.cli.HarnessFlags;
import dev.rmqpatch.bench.cli.UsageException;
import dev.rmqpatch.bench.workload.Workload;
import dev.rmqpatch.bench.workload.WorkloadParser;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * {@code workload}: reads a workload file as {@code bench run --workload} does and says what it runs and which payload
 * file it sends, resolved as bench run resolves it (next to the workload file, then under --payload-dir). Errors are
 * bench run's, before anything starts. scripts/run-distributed.sh calls it on the control machine to find the files it
 * must push to the coordinator's host.
 */
public final class WorkloadCommand {
    static final FlagSet FLAGS = new FlagSet("Usage: bench workload --workload FILE [--payload-dir DIR]", String.join("\n",
        "Reads an OpenMessaging Benchmark workload file exactly as bench run --workload does (the same errors: an",
        "unknown field, a bad value, a payloadFile found nowhere, naming every path tried) and prints:",
        "  workload: <what it runs>",
        "  payloadFile: <the field as written>      only when the bodies come from a payload file",
        "  payloadPath: <the file bench run reads>  next to the workload file first, then under --payload-dir",
        "  note: <how OMB's defaults or the file's shape change what runs>  one line each, when there are any"))
        .section("Options:", HarnessFlags.WORKLOAD, HarnessFlags.PAYLOAD_DIR)
        .epilogue("-h, --help: this text. Exit status: 0 the file runs as printed; 2 it does not (the reason is printed).");

    private WorkloadCommand() {
    }

    public static String helpText() {
        return FLAGS.help();
    }

    public static int run(String[] args, PrintStream out) throws UsageException, IOException {
        Args f = FLAGS.parse(args);
        if (!f.has(HarnessFlags.WORKLOAD)) {
            throw new UsageException("give the workload file: --workload FILE");
        }
        Path file = f.get(HarnessFlags.WORKLOAD);
        if (!Files.isRegularFile(file)) {
            throw new UsageException("no workload file " + file.toAbsolutePath().normalize());
        }
        Workload w;
        try {
            w = WorkloadParser.parse(file);
        } catch (IllegalArgumentException e) {
            throw new UsageException(e.getMessage());
        }
        Path payloadDir = HarnessFlags.payloadDir(f, w);
        out.println("workload: " + w);
        w.notes().forEach(n -> out.println("note: " + n));
        if (w.payload().isFile()) {
            out.println("payloadFile: " + w.payload().fileName());
            out.println("payloadPath: " + w.payload().resolve(payloadDir));
        }
        return 0;
    }
}
