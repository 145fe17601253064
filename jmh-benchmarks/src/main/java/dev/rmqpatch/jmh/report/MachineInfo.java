package dev.rmqpatch.jmh.report;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.List;
import java.util.Locale;

/**
 * The machine the report is made on (the one the benchmarks ran on, when the report follows the run as in
 * scripts/jmh.sh): processor count, CPU model and memory from /proc, and the operating system.
 */
public record MachineInfo(int processors, String cpuModel, String memory, String os) {

    public static MachineInfo current() {
        return read(Paths.get("/proc/cpuinfo"), Paths.get("/proc/meminfo"), Runtime.getRuntime().availableProcessors(),
            System.getProperty("os.name") + " " + System.getProperty("os.version") + " " + System.getProperty("os.arch"));
    }

    /** From the given cpuinfo and meminfo files; anything unreadable becomes "unknown". */
    static MachineInfo read(Path cpuinfo, Path meminfo, int processors, String os) {
        String model = field(cpuinfo, "model name");
        String mem = field(meminfo, "MemTotal");
        String memory = "unknown";
        if (mem != null) {
            String[] parts = mem.trim().split("\\s+");
            try {
                long kib = Long.parseLong(parts[0]);
                memory = String.format(Locale.ROOT, "%.1f GiB", kib / (1024.0 * 1024.0));
            } catch (NumberFormatException e) {
                memory = mem.trim();
            }
        }
        return new MachineInfo(processors, model == null ? "unknown" : model, memory, os);
    }

    /** Value of the first "name : value" line with this name. */
    private static String field(Path file, String name) {
        List<String> lines;
        try {
            lines = Files.readAllLines(file, StandardCharsets.UTF_8);
        } catch (IOException | RuntimeException e) {
            return null;
        }
        for (String line : lines) {
            int colon = line.indexOf(':');
            if (colon > 0 && line.substring(0, colon).trim().equals(name)) {
                return line.substring(colon + 1).trim();
            }
        }
        return null;
    }
}
