package dev.rmqpatch.jmh.report;

import java.util.List;
import java.util.Map;

/**
 * One entry of a JMH JSON result file ({@code -rf json}): a benchmark method run with one set of parameters.
 *
 * @param benchmark  fully qualified method, e.g. {@code dev.rmqpatch.jmh.PropertiesBenchmark.parseStock}
 * @param mode       JMH mode, e.g. {@code avgt}
 * @param params     benchmark parameters in file order (empty when the benchmark has none)
 * @param primary    the primary score
 * @param allocation {@code gc.alloc.rate.norm} from {@code -prof gc} in B/op, or null when the run had no GC profiler
 * @param run        how the benchmark was run (JMH, JVM, iterations)
 */
public record JmhResult(String benchmark, String mode, Map<String, String> params, Metric primary, Metric allocation,
                        RunInfo run) {

    /** The class part of {@link #benchmark}, fully qualified. */
    public String className() {
        int dot = benchmark.lastIndexOf('.');
        return dot < 0 ? "" : benchmark.substring(0, dot);
    }

    /** The method part of {@link #benchmark}. */
    public String methodName() {
        return benchmark.substring(benchmark.lastIndexOf('.') + 1);
    }

    /** Run settings as JMH records them with every result. */
    public record RunInfo(String jmhVersion, String jdkVersion, String vmName, String vmVersion, String jvm,
                          List<String> jvmArgs, int forks, int threads, int warmupIterations, String warmupTime,
                          int measurementIterations, String measurementTime) {
    }
}
