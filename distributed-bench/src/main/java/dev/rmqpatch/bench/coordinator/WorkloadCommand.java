package dev.rmqpatch.bench.coordinator;

import dev.rmqpatch.bench.cli.Flags;
import dev.rmqpatch.bench.cli.UsageException;
import dev.rmqpatch.bench.workload.Workload;
import dev.rmqpatch.bench.workload.WorkloadParser;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;

/**
 * {@code workload}: reads a workload file as {@code bench run --workload} does and says what it runs and which payload
 * file it sends, resolved as bench run resolves it (next to the workload file, then under --payload-dir). Errors are
 * bench run's, before anything starts. scripts/run-distributed.sh calls it on the control machine to find the files it
 * must push to the coordinator's host.
 */
public final class WorkloadCommand {
    static final String HELP = String.join("\n",
        "Usage: bench workload --workload FILE [--payload-dir DIR]",
        "",
        "Reads an OpenMessaging Benchmark workload file exactly as bench run --workload does (the same errors: an",
        "unknown field, a bad value, a payloadFile found nowhere, naming every path tried) and prints:",
        "  workload: <what it runs>",
        "  payloadFile: <the field as written>      only when the bodies come from a payload file",
        "  payloadPath: <the file bench run reads>  next to the workload file first, then under --payload-dir",
        "",
        "Options:",
        "  --workload FILE    the workload file (YAML or JSON)",
        "  --payload-dir DIR  where a relative payloadFile is looked for after the workload file's folder",
        "  -h, --help         this text",
        "",
        "Exit status: 0 the file runs as printed; 2 it does not (the reason is printed).");

    private static final Set<String> VALUED = Set.of("--workload", "--payload-dir");

    private WorkloadCommand() {
    }

    public static String helpText() {
        return HELP;
    }

    public static int run(String[] args, PrintStream out) throws UsageException, IOException {
        Flags f = Flags.parse(args, VALUED, Set.of());
        if (!f.has("--workload")) {
            throw new UsageException("give the workload file: --workload FILE");
        }
        Path file = Path.of(f.get("--workload", null));
        if (!Files.isRegularFile(file)) {
            throw new UsageException("no workload file " + file.toAbsolutePath().normalize());
        }
        Workload w;
        try {
            w = WorkloadParser.parse(file);
        } catch (IllegalArgumentException e) {
            throw new UsageException(e.getMessage());
        }
        Path payloadDir = RunCommand.payloadDir(f, w);
        out.println("workload: " + w);
        if (w.payload().isFile()) {
            out.println("payloadFile: " + w.payload().fileName());
            out.println("payloadPath: " + w.payload().resolve(payloadDir));
        }
        return 0;
    }
}
