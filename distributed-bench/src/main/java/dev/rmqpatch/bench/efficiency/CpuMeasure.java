package dev.rmqpatch.bench.efficiency;

import dev.rmqpatch.bench.engine.RunOptions;
import dev.rmqpatch.cluster.Topology;
import java.util.List;
import java.util.function.Function;

/**
 * The CPU-per-message figures an efficiency run reports, each with its window value and its variant figure in
 * results.json. In the single topology the broker's is the run's main figure; in ms-sync it is the pair's (SYNC_MASTER
 * plus SLAVE JVM CPU per message the master stored), the cost an operator of the article's topology pays, with the
 * master's and the slave's beside it.
 */
public enum CpuMeasure {
    BROKER("brokerCpuUsPerMsg", "broker", "the broker's (in ms-sync the SYNC_MASTER's) JVM", "per message stored", w -> w.brokerCpuUsPerMsg),
    SLAVE("slaveCpuUsPerMsg", "slave", "the SLAVE's JVM over the same windows", "per message the master stored", w -> w.slaveCpuUsPerMsg),
    PAIR("pairCpuUsPerMsg", "pair", "SYNC_MASTER + SLAVE JVMs together", "per message the master stored", w -> w.pairCpuUsPerMsg),
    /** --clients: the window's client's agent JVMs (whole processes, /proc), per message that client sent or received. */
    CLIENT("clientCpuUsPerMsg", "client", "the client's agent JVM(s), whole processes", "per message the client sent (acknowledged) "
        + "or, consumer side, received", w -> w.clientCpuUsPerMsg),
    /**
     * The whole machine's CPU time not idle over the window, per message stored: what no attribution to processes can
     * miss (interrupts handled while a CPU was otherwise idle, kernel threads), but also the agents, the name servers
     * and the other variants' idle brokers, which differ by variant (each is measured beside the others): a check on the
     * main figure, not a replacement. Local brokers only.
     */
    MACHINE("machineCpuUsPerMsg", "machine", "this machine's CPUs, time not idle (every process of the run including the agents and "
        + "the other variants' idle brokers, the kernel, interrupts; wall time x CPUs minus /proc/stat idle)", "per message stored",
        w -> w.machineCpuUsPerMsg);

    /** The field's name in results.json, in the window and in the variant. */
    public final String field;
    /** Column label in the table. */
    public final String label;
    public final String meaning;
    /** What the CPU is divided by. */
    public final String perMessage;
    private final Function<Window, Double> ofWindow;

    CpuMeasure(String field, String label, String meaning, String perMessage, Function<Window, Double> ofWindow) {
        this.field = field;
        this.label = label;
        this.meaning = meaning;
        this.perMessage = perMessage;
        this.ofWindow = ofWindow;
    }

    public Double of(Window w) {
        return ofWindow.apply(w);
    }

    public EfficiencyResults.CpuFigure of(EfficiencyResults.VariantResult v) {
        switch (this) {
            case BROKER:
                return v.brokerCpuUsPerMsg;
            case SLAVE:
                return v.slaveCpuUsPerMsg;
            case CLIENT:
                return v.clientCpuUsPerMsg;
            case MACHINE:
                return v.machineCpuUsPerMsg;
            default:
                return v.pairCpuUsPerMsg;
        }
    }

    void set(EfficiencyResults.VariantResult v, EfficiencyResults.CpuFigure f) {
        switch (this) {
            case BROKER:
                v.brokerCpuUsPerMsg = f;
                break;
            case SLAVE:
                v.slaveCpuUsPerMsg = f;
                break;
            case CLIENT:
                v.clientCpuUsPerMsg = f;
                break;
            case MACHINE:
                v.machineCpuUsPerMsg = f;
                break;
            default:
                v.pairCpuUsPerMsg = f;
        }
    }

    /** The main figure of a run in {@code topology}. */
    public static CpuMeasure mainFor(Topology topology) {
        return topology == Topology.SINGLE ? BROKER : PAIR;
    }

    /** The main figure of a run with these options: the client's with --clients, else by topology. */
    public static CpuMeasure mainFor(RunOptions o) {
        return o.clients != null ? CLIENT : mainFor(o.topology);
    }

    /** The run's main figure, as its results name it (BROKER when they do not): its ratio and interval are the result. */
    public static CpuMeasure main(EfficiencyResults r) {
        return r.mainFigure == null ? BROKER : valueOf(r.mainFigure);
    }

    /** The figures a run with this main figure reports, this one first. */
    public List<CpuMeasure> reported() {
        // A client comparison shows the one broker's CPU over the same windows beside it: the clients should not change it.
        // The machine's comes last everywhere: a check that the saving is not moved out of the measured processes.
        return this == PAIR ? List.of(PAIR, BROKER, SLAVE, MACHINE) : this == CLIENT ? List.of(CLIENT, BROKER, MACHINE)
            : List.of(this, MACHINE);
    }
}
