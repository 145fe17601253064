package dev.rmqpatch.bench.engine;

import dev.rmqpatch.bench.cli.Args;
import dev.rmqpatch.bench.cli.Flag;
import dev.rmqpatch.bench.cli.UsageException;
import java.util.List;

/**
 * One way of comparing variants (a measurement mode of {@code compare}): its own flags, and what it runs on the shared
 * {@link RunContext}. The context starts and stops what every plan needs (distribution checks, agents, profiling,
 * metadata, the output folder); the plan decides what to start, what to measure and how to summarise it.
 *
 * <p>Plans are found with {@link java.util.ServiceLoader} (META-INF/services lists them, see {@link Plans}): a new mode is
 * one class implementing this interface and its line there; the command, its help and its flag checks follow from it.
 */
public interface Plan {
    /** The switch that selects this plan, or null for the one plan that runs when no switch is given. */
    Flag<Boolean> selector();

    /** The title of this plan's section in the help, and what the plan does. */
    String helpTitle();

    String helpText();

    /** Flags that only this plan takes; given with another plan they are an error. */
    List<Flag<?>> flags();

    /** The variants compared when --variants is not given. */
    List<String> defaultVariants();

    /** Warm-up seconds when neither --warmup nor a workload file gives them. */
    int defaultWarmupSeconds();

    /** Reads this plan's flags into the options and checks them against the rest (called after the shared flags). */
    void configure(Args args, RunOptions options) throws UsageException;

    /** One line saying what is about to run. */
    String describe(RunOptions options);

    /** Runs the plan; the context has checked the distributions and opened the broker admin. */
    void run(RunContext context) throws Exception;

    /** Marks the results as ok, or as failed with the error. */
    void ended(String error);

    /** Summary, results.json, table and chart from whatever was measured; also after a failure. */
    void finish(RunContext context);
}
