package dev.rmqpatch.jmh.report;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import com.google.gson.Gson;
import com.google.gson.GsonBuilder;

/**
 * results.json: the comparisons with their raw scores and derived figures, plus what is needed to reproduce and
 * judge them (command, JMH and JDK versions, JVM arguments, iterations, machine). NaN (no error estimate, no
 * allocation figure) is written as null.
 */
public final class ResultsJsonWriter {

    private static final Gson GSON = new GsonBuilder().setPrettyPrinting().serializeNulls().disableHtmlEscaping().create();

    private ResultsJsonWriter() {
    }

    public static void write(Path file, String source, String command, MachineInfo machine,
                             Pairing.Pairs pairs, OffsetDateTime generated) throws IOException {
        Files.writeString(file, toJson(source, command, machine, pairs, generated) + "\n", StandardCharsets.UTF_8);
    }

    static String toJson(String source, String command, MachineInfo machine, Pairing.Pairs pairs,
                         OffsetDateTime generated) {
        Map<String, Object> root = new LinkedHashMap<>();
        root.put("generated", generated.toString());
        root.put("command", command);
        root.put("source", source);
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("processors", machine.processors());
        m.put("cpuModel", machine.cpuModel());
        m.put("memory", machine.memory());
        m.put("os", machine.os());
        root.put("machine", m);
        JmhResult first = !pairs.comparisons().isEmpty() ? pairs.comparisons().get(0).stock()
            : pairs.unpaired().isEmpty() ? null : pairs.unpaired().get(0);
        if (first != null) {
            JmhResult.RunInfo run = first.run();
            Map<String, Object> jvm = new LinkedHashMap<>();
            jvm.put("jdkVersion", run.jdkVersion());
            jvm.put("vmName", run.vmName());
            jvm.put("vmVersion", run.vmVersion());
            jvm.put("java", run.jvm());
            jvm.put("jvmArgs", run.jvmArgs());
            root.put("jdk", jvm);
            Map<String, Object> jmh = new LinkedHashMap<>();
            jmh.put("version", run.jmhVersion());
            jmh.put("mode", first.mode());
            jmh.put("forks", run.forks());
            jmh.put("threads", run.threads());
            jmh.put("warmup", run.warmupIterations() + " x " + run.warmupTime());
            jmh.put("measurement", run.measurementIterations() + " x " + run.measurementTime());
            jmh.put("error", "99.9% confidence half-width");
            root.put("jmh", jmh);
        }
        List<Object> rows = new ArrayList<>();
        for (Comparison c : pairs.comparisons()) {
            Map<String, Object> row = new LinkedHashMap<>();
            row.put("operation", c.operation());
            row.put("benchmark", c.benchmark());
            row.put("params", c.params());
            row.put("unit", c.stock().primary().unit());
            row.put("stock", side(c.stock()));
            row.put("patched", side(c.patched()));
            row.put("speedup", num(c.speedup()));
            row.put("speedupLow", num(c.speedupLow()));
            row.put("speedupHigh", num(c.speedupHigh()));
            row.put("allocationSaved", num(c.allocationSaved()));
            rows.add(row);
        }
        root.put("comparisons", rows);
        List<Object> unpaired = new ArrayList<>();
        for (JmhResult r : pairs.unpaired()) {
            Map<String, Object> u = new LinkedHashMap<>();
            u.put("benchmark", r.benchmark());
            u.put("params", r.params());
            u.put("result", metric(r.primary()));
            unpaired.add(u);
        }
        root.put("unpaired", unpaired);
        return GSON.toJson(root);
    }

    private static Map<String, Object> side(JmhResult r) {
        Map<String, Object> s = new LinkedHashMap<>();
        s.put("benchmark", r.benchmark());
        s.put("score", num(r.primary().score()));
        s.put("error", num(r.primary().error()));
        s.put("bytesPerOp", r.allocation() == null ? null : num(r.allocation().score()));
        s.put("bytesPerOpError", r.allocation() == null ? null : num(r.allocation().error()));
        return s;
    }

    private static Map<String, Object> metric(Metric m) {
        Map<String, Object> s = new LinkedHashMap<>();
        s.put("score", num(m.score()));
        s.put("error", num(m.error()));
        s.put("unit", m.unit());
        return s;
    }

    private static Double num(double d) {
        return Double.isNaN(d) || Double.isInfinite(d) ? null : d;
    }
}
