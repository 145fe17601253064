package dev.rmqpatch.bench.broker;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * What the broker did in a measurement window, from two {@link BrokerSample}s. CPU and bytes are divided by the
 * messages the broker stored in the same window, read in the same instant as the other counters, so the ratios do not
 * depend on how well the agents' window lines up with the broker's.
 */
public final class BrokerFigures {
    public double windowSeconds;
    public Long messagesStored;
    /** Broker-side throughput: messages stored per second of the window. */
    public Double storedPerSecond;
    public Double cpuUsPerMsg;
    public Double storedBytesPerMsg;
    public Double gcPauseMillis;
    public Double gcCollections;
    /** Cores' worth of CPU the broker JVM used on average. */
    public Double brokerCores;
    /** Cores' worth of CPU used by the whole machine (wall time minus idle, every process and the kernel), and by each role. */
    public Double machineBusyCores;
    public Map<String, Double> roleCores;
    /** Machine CPU not explained by any process of the run: other load that distorts the numbers. */
    public Double otherCores;
    /** The broker JVM's threads per message stored, by group; null without thread snapshots. */
    public ThreadCosts brokerThreads;
    /** The same for the processes of the roles whose threads were snapshot, per message the broker stored. */
    public Map<String, ThreadCosts> roleThreads;

    /** CPU used at {@code cores} over this window, in microseconds per message stored in it; null without a count. */
    public Double usPerMessage(Double cores) {
        return cores == null || messagesStored == null || messagesStored == 0 ? null : cores * windowSeconds * 1e6 / messagesStored;
    }

    public static BrokerFigures between(BrokerSample start, BrokerSample end) {
        BrokerFigures f = new BrokerFigures();
        long wall = end.wallNanos - start.wallNanos;
        f.windowSeconds = wall / 1e9;
        if (start.putMessages != null && end.putMessages != null) {
            f.messagesStored = end.putMessages - start.putMessages;
            f.storedPerSecond = wall > 0 ? f.messagesStored / f.windowSeconds : null;
        }
        boolean perMessage = f.messagesStored != null && f.messagesStored > 0;
        if (perMessage && start.brokerCpuNanos != null && end.brokerCpuNanos != null) {
            f.cpuUsPerMsg = (end.brokerCpuNanos - start.brokerCpuNanos) / 1000.0 / f.messagesStored;
        }
        if (perMessage && start.commitLogMaxOffset != null && end.commitLogMaxOffset != null) {
            f.storedBytesPerMsg = (double) (end.commitLogMaxOffset - start.commitLogMaxOffset) / f.messagesStored;
        }
        if (perMessage) {
            f.brokerThreads = ThreadCosts.between(start.brokerThreads, end.brokerThreads, f.messagesStored);
            if (start.roleThreads != null && end.roleThreads != null) {
                f.roleThreads = new LinkedHashMap<>();
                for (Map.Entry<String, ThreadSnapshot> e : end.roleThreads.entrySet()) {
                    ThreadCosts c = ThreadCosts.between(start.roleThreads.get(e.getKey()), e.getValue(), f.messagesStored);
                    if (c != null) {
                        f.roleThreads.put(e.getKey(), c);
                    }
                }
            }
        }
        if (start.gcPauseMillis != null && end.gcPauseMillis != null) {
            f.gcPauseMillis = end.gcPauseMillis - start.gcPauseMillis;
            f.gcCollections = end.gcCollections - start.gcCollections;
        }
        if (wall > 0) {
            if (start.brokerCpuNanos != null && end.brokerCpuNanos != null) {
                f.brokerCores = (double) (end.brokerCpuNanos - start.brokerCpuNanos) / wall;
            }
            if (start.machine != null && end.machine != null) {
                f.machineBusyCores = Math.max(0, end.machine.cpus() - (double) (end.machine.idleNanos() - start.machine.idleNanos()) / wall);
            }
            if (start.roleCpuNanos != null && end.roleCpuNanos != null) {
                f.roleCores = new LinkedHashMap<>();
                double known = 0;
                for (Map.Entry<String, Long> e : end.roleCpuNanos.entrySet()) {
                    Long before = start.roleCpuNanos.get(e.getKey());
                    if (before != null && e.getValue() != null) {
                        double cores = (double) (e.getValue() - before) / wall;
                        f.roleCores.put(e.getKey(), cores);
                        known += cores;
                    }
                }
                if (f.machineBusyCores != null) {
                    f.otherCores = Math.max(0, f.machineBusyCores - known);
                }
            }
        }
        return f;
    }
}
