package dev.rmqpatch.bench.broker;

import java.util.Map;

/** Broker-side counters at one instant; two samples bracket a measurement window. Null = not available. */
public final class BrokerSample {
    public long wallNanos;
    /** Messages the broker(s) stored so far (msgPutTotalTodayNow: every put since start, despite the name). */
    public Long putMessages;
    /** Sum over brokers of the CommitLog's max physical offset: bytes appended since the store was created. */
    public Long commitLogMaxOffset;
    /** Broker JVM CPU time, local brokers only. */
    public Long brokerCpuNanos;
    public Double gcPauseMillis;
    public Double gcCollections;
    /** Whole machine, all cores: idle (+ iowait + steal) time and the CPU count; busy = wall x CPUs - idle. */
    public ProcStat.MachineIdle machine;
    /** CPU time per role (broker, namesrv, agents, coordinator, sink) of the processes this tool started or knows. */
    public Map<String, Long> roleCpuNanos;
    /** The broker JVM's threads, local brokers only. */
    public ThreadSnapshot brokerThreads;
    /** The threads of the processes of the roles {@link BrokerProbe#threadsOf} names (a slave: one process per role). */
    public Map<String, ThreadSnapshot> roleThreads;
}
