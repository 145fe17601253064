package dev.rmqpatch.bench;

import dev.rmqpatch.bench.agent.AgentMain;
import dev.rmqpatch.bench.cli.UsageException;
import java.util.Arrays;
import java.util.List;

/** Entry point of {@code distributed-bench.jar}: dispatches to the agent, run, sink, compare, jmx-check, workload, summarize, rounds and failover commands. */
public final class Main {
    static final String HELP = String.join("\n",
        "Usage: java -jar distributed-bench.jar <command> [options]",
        "",
        "Commands:",
        "  run       coordinator: run one workload with load agents against a cluster (or --sink), print and save results",
        "  compare   interleaved A/B rounds of RocketMQ variants on fresh local clusters, or (--efficiency) paired",
        "            fixed-rate windows on warm brokers with a confidence interval (what scripts/compare.sh runs)",
        "  agent     a load agent process (started by run/compare, or by hand on another host)",
        "  sink      a no-op RocketMQ endpoint that acknowledges sends at once (the harness's own ceiling)",
        "  jmx-check what a broker's remote JMX port allows: login, read the CPU and GC MBeans, invoke an operation",
        "  workload  read a workload file as run does: what it runs and which payload file it sends (or why not)",
        "  summarize recompute an efficiency output folder's tables, chart and results.json from its recorded windows",
        "  rounds    the saturation rounds' order for a runner on other hosts, and their merge into one results.json,",
        "            table and chart (what scripts/run-distributed.sh --variants A,B runs)",
        "  failover  how fast stock producers move to the other of two masters while one stalls (the stall agent), per",
        "            variant in interleaved rounds (what scripts/failover.sh runs)",
        "",
        "Every command takes --help.");

    private Main() {
    }

    public static void main(String[] args) {
        System.exit(run(args));
    }

    static int run(String[] args) {
        if (args.length == 0 || args[0].equals("-h") || args[0].equals("--help")) {
            System.out.println(HELP);
            return args.length == 0 ? 2 : 0;
        }
        String command = args[0];
        String[] rest = Arrays.copyOfRange(args, 1, args.length);
        List<String> restList = Arrays.asList(rest);
        boolean help = restList.contains("-h") || restList.contains("--help");
        try {
            switch (command) {
                case "agent":
                    return AgentMain.command(rest);
                case "run":
                    if (help) {
                        System.out.println(dev.rmqpatch.bench.command.RunCommand.helpText());
                        return 0;
                    }
                    return dev.rmqpatch.bench.command.RunCommand.run(rest, System.out);
                case "sink":
                    if (help) {
                        System.out.println(dev.rmqpatch.bench.sink.SinkMain.helpText());
                        return 0;
                    }
                    return dev.rmqpatch.bench.sink.SinkMain.run(rest);
                case "compare":
                    if (help) {
                        System.out.println(dev.rmqpatch.bench.command.CompareCommand.helpText());
                        return 0;
                    }
                    return dev.rmqpatch.bench.command.CompareCommand.run(rest, System.out);
                case "jmx-check":
                    if (help) {
                        System.out.println(dev.rmqpatch.bench.broker.JmxCheckCommand.helpText());
                        return 0;
                    }
                    return dev.rmqpatch.bench.broker.JmxCheckCommand.run(rest, System.out);
                case "summarize":
                    if (help) {
                        System.out.println(dev.rmqpatch.bench.command.SummarizeCommand.helpText());
                        return 0;
                    }
                    return dev.rmqpatch.bench.command.SummarizeCommand.run(rest, System.out);
                case "rounds":
                    if (help) {
                        System.out.println(dev.rmqpatch.bench.command.RoundsCommand.helpText());
                        return 0;
                    }
                    return dev.rmqpatch.bench.command.RoundsCommand.run(rest, System.out);
                case "failover":
                    if (help) {
                        System.out.println(dev.rmqpatch.bench.command.FailoverCommand.helpText());
                        return 0;
                    }
                    return dev.rmqpatch.bench.command.FailoverCommand.run(rest, System.out);
                case "workload":
                    if (help) {
                        System.out.println(dev.rmqpatch.bench.command.WorkloadCommand.helpText());
                        return 0;
                    }
                    return dev.rmqpatch.bench.command.WorkloadCommand.run(rest, System.out);
                default:
                    throw new UsageException("unknown command '" + command + "'");
            }
        } catch (UsageException e) {
            System.err.println("bench " + command + ": " + e.getMessage() + " (see --help)");
            return 2;
        } catch (Exception e) {
            System.err.println("bench " + command + ": " + e.getMessage());
            return 1;
        }
    }
}
