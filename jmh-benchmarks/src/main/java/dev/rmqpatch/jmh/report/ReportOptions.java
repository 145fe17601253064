package dev.rmqpatch.jmh.report;

import java.nio.file.Path;
import java.nio.file.Paths;

/**
 * Parsed command line of {@link ReportMain}: {@code --in FILE --out DIR [--command TEXT]}, each also as
 * {@code --name=value}; {@code -h}/{@code --help} alone asks for the usage text.
 */
public record ReportOptions(boolean help, Path in, Path out, String command) {

    public static ReportOptions parse(String[] args) throws UsageException {
        Path in = null;
        Path out = null;
        String command = null;
        for (int i = 0; i < args.length; i++) {
            String arg = args[i];
            String name = arg;
            String value = null;
            int eq = arg.indexOf('=');
            if (arg.startsWith("--") && eq > 0) {
                name = arg.substring(0, eq);
                value = arg.substring(eq + 1);
            }
            switch (name) {
                case "-h":
                case "--help":
                    return new ReportOptions(true, null, null, null);
                case "--in":
                case "--out":
                case "--command":
                    if (value == null) {
                        if (i + 1 >= args.length) {
                            throw new UsageException(name + " needs a value");
                        }
                        value = args[++i];
                    }
                    if (value.isEmpty()) {
                        throw new UsageException(name + " needs a non-empty value");
                    }
                    if (name.equals("--in")) {
                        in = Paths.get(value);
                    } else if (name.equals("--out")) {
                        out = Paths.get(value);
                    } else {
                        command = value;
                    }
                    break;
                default:
                    throw new UsageException((arg.startsWith("-") ? "unknown option " : "unexpected argument ") + "'" + arg + "'");
            }
        }
        if (in == null) {
            throw new UsageException("--in FILE (the JMH JSON result file) is required");
        }
        if (out == null) {
            throw new UsageException("--out DIR (where table.txt, results.json and chart.png go) is required");
        }
        return new ReportOptions(false, in, out, command);
    }
}
