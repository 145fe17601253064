package dev.rmqpatch.bench.compare;

import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import dev.rmqpatch.bench.coordinator.RunResult;
import dev.rmqpatch.bench.engine.Variant;
import dev.rmqpatch.bench.protocol.Json;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The saturation plan's rounds and their merge, for rounds that something else ran: {@code scripts/run-distributed.sh
 * --variants A,B --rounds N} starts a fresh cluster of one variant on the cluster file's hosts for every run of
 * {@link #schedule}, runs {@code bench run} against it into {@code runs/<round>-<variant>/}, and asks {@code bench rounds
 * --merge DIR} for one results.json, table.txt and chart.png with the statistics {@link SaturationPlan} computes on this
 * machine ({@link Summarizer}, {@link CompareTable}, {@link ChartWriter}).
 */
public final class SaturationRounds {
    /** How the rounds are ordered, as results.json's metadata says (both here and in {@link SaturationPlan}). */
    public static final String ORDER = "interleaved: every round runs each variant once, in --variants order";
    /** Written by run-distributed.sh in a round's folder: "brokerName brokerId masterOffset slaveOffset behindBytes". */
    static final String REPLICATION_FILE = "replication.txt";
    /** bench run's output in a round's folder: {"command": ..., "machine": ..., "result": RunResult}. */
    static final String ROUND_RESULTS = "results.json";

    private SaturationRounds() {
    }

    /** One run of the schedule: a round of one variant, and where its output goes, relative to the results folder. */
    public record Run(int round, String variant) {
        public String folder() {
            return "runs/" + round + "-" + variant;
        }

        @Override
        public String toString() {
            return round + " " + variant;
        }
    }

    /**
     * Every round runs each variant once, in the given order: A B A B ... Throws IllegalArgumentException for no variant,
     * a variant given twice, or fewer than one round.
     */
    public static List<Run> schedule(List<String> variants, int rounds) {
        if (rounds < 1) {
            throw new IllegalArgumentException("--rounds must be 1 or more, not " + rounds);
        }
        if (variants.isEmpty()) {
            throw new IllegalArgumentException("--variants needs at least one variant");
        }
        if (variants.stream().distinct().count() != variants.size()) {
            throw new IllegalArgumentException("--variants " + String.join(",", variants) + ": a variant given twice (for an A/A "
                + "comparison name the copy NAME#2)");
        }
        List<Run> runs = new ArrayList<>();
        for (int round = 1; round <= rounds; round++) {
            for (String v : variants) {
                runs.add(new Run(round, v));
            }
        }
        return runs;
    }

    /**
     * The merged results of the folder's rounds, in schedule order, up to the first one that is missing: a round after a
     * gap is not the interleaved design any more. {@code running}: more rounds are to come (status "running"); otherwise
     * "ok" when every round of the schedule is there and succeeded, "failed" with the reason when not.
     */
    public static CompareResults merge(Path dir, List<String> variants, String baseline, int rounds, String command, boolean running)
        throws IOException {
        List<Run> schedule = schedule(variants, rounds);
        if (!variants.contains(baseline)) {
            throw new IllegalArgumentException("--baseline " + baseline + " is not one of the variants " + variants);
        }
        CompareResults results = new CompareResults();
        results.baseline = baseline;
        Map<String, List<RunResult>> runs = new LinkedHashMap<>();
        Map<String, Object> variantsMeta = new LinkedHashMap<>();
        for (String name : variants) {
            Variant v = Variant.parse(name);
            CompareResults.VariantResult r = new CompareResults.VariantResult();
            r.name = name;
            r.distribution = v.distName();
            r.conf = v.confName();
            results.variants.add(r);
            runs.put(name, new ArrayList<>());
            Map<String, Object> d = new LinkedHashMap<>();
            d.put("distribution", v.distName());
            d.put("conf", v.confName());
            variantsMeta.put(name, d);
        }
        List<String> warnings = new ArrayList<>();
        String error = null;
        JsonObject first = null;
        RunResult firstResult = null;
        boolean slaves = false;
        int done = 0;
        for (Run run : schedule) {
            Path file = dir.resolve(run.folder()).resolve(ROUND_RESULTS);
            if (!Files.isRegularFile(file)) {
                error = running ? null : "round " + run.round() + " of " + run.variant() + " has no results (" + dir.relativize(file)
                    + "): " + done + " of " + schedule.size() + " runs done";
                break;
            }
            JsonObject top = JsonParser.parseString(Files.readString(file)).getAsJsonObject();
            JsonElement result = top.get("result");
            if (result == null || !result.isJsonObject()) {
                throw new IllegalArgumentException(file + " is not the output of bench run (no \"result\")");
            }
            RunResult r = Json.GSON.fromJson(result, RunResult.class);
            if (first == null) {
                first = top;
                firstResult = r;
                results.clientMode = r.clientMode;
                results.rateMsgPerS = r.workload == null ? 0 : r.workload.producerRate;
            }
            CompareResults.VariantResult vr = find(results, run.variant());
            CompareResults.RoundResult x = Summarizer.round(run.round(), r, dir.relativize(file).toString());
            // The coordinator's machine is not the brokers': CPU used there by other processes says nothing about them.
            x.otherCpuCores = null;
            vr.rounds.add(x);
            runs.get(run.variant()).add(r);
            if (vr.rounds.size() == 1) {
                Map<String, Object> d = variantEntry(variantsMeta, run.variant());
                d.put("namesrv", r.namesrv);
                if (top.has("command")) {
                    d.put("firstRoundCommand", top.get("command").getAsString());
                }
            }
            Path replication = dir.resolve(run.folder()).resolve(REPLICATION_FILE);
            if (Files.isRegularFile(replication)) {
                slaves = true;
                warnings.addAll(replicationWarnings(run, Files.readAllLines(replication)));
            }
            done++;
            if (!"ok".equals(r.status)) {
                error = "round " + run.round() + " of " + run.variant() + " failed: " + r.error;
                break;
            }
        }
        results.status = error != null ? "failed" : running ? "running" : "ok";
        results.error = error;
        Map<String, Object> m = results.metadata;
        m.put("command", command);
        m.put("startedAt", firstResult == null ? null : firstResult.startedAt);
        m.put("rounds", rounds);
        m.put("order", ORDER);
        m.put("roundsDone", done);
        m.put("where", "each round a fresh name server and broker(s) with fresh stores on the cluster file's hosts (cluster.conf), "
            + "the same agents throughout; every round's own output, with its command line, in runs/<round>-<variant>/");
        if (firstResult != null) {
            m.put("workload", firstResult.workload);
            m.put("agents", firstResult.agents.size());
            if (first.has("machine")) {
                m.put("coordinatorMachine", Json.GSON.fromJson(first.get("machine"), Object.class));
            }
        }
        m.put("topology", slaves ? "ms-sync" : "single");
        m.put("topologyDescription", (slaves ? "masters with slaves" : "masters without slaves")
            + " on the cluster file's hosts; broker CPU and GC from the masters' JVMs over JMX");
        m.put("variants", variantsMeta);
        Summarizer.summarizeAll(results, runs);
        results.warnings.addAll(warnings);
        m.put("finishedAt", Instant.now().toString());
        return results;
    }

    /** The table, as compare prints it, of merged results. */
    public static String table(CompareResults results) {
        return CompareTable.render(results, (Integer) results.metadata.get("rounds"));
    }

    /** A slave that was behind its master (or did not answer) after a round's load stopped. */
    static List<String> replicationWarnings(Run run, List<String> lines) {
        List<String> w = new ArrayList<>();
        for (String line : lines) {
            String[] f = line.trim().split("\\s+");
            if (f.length < 5 || "0".equals(f[4])) {
                continue;
            }
            w.add(String.format("%s round %d: slave %s/%s %s after the load stopped (master CommitLog max offset %s, slave %s): "
                + "replication fell behind or broke (see %s/%s and the brokers' logs)", run.variant(), run.round(), f[0], f[1],
                "?".equals(f[4]) ? "did not answer" : "was " + f[4] + " bytes behind", f[2], f[3], run.folder(), REPLICATION_FILE));
        }
        return w;
    }

    private static CompareResults.VariantResult find(CompareResults results, String name) {
        for (CompareResults.VariantResult v : results.variants) {
            if (v.name.equals(name)) {
                return v;
            }
        }
        throw new IllegalStateException(name);
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> variantEntry(Map<String, Object> variants, String name) {
        return (Map<String, Object>) variants.get(name);
    }
}
