package dev.rmqpatch.bench.broker;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Takes {@link BrokerSample}s: runtime statistics from every master through the admin API (works for remote brokers
 * too), and, for processes on this machine, CPU from /proc and GC from a {@link GcMonitor}.
 */
public final class BrokerProbe {
    private final BrokerAdmin admin;
    private final List<String> brokerAddrs;
    private final Long brokerPid;
    private final GcMonitor gc;
    private final Map<String, List<Long>> rolePids;
    private final Set<String> threadRoles = new LinkedHashSet<>();

    /**
     * @param brokerPid the broker JVM's pid if it runs on this machine, else null (no CPU figures)
     * @param gc GC monitor of that JVM, or null
     * @param rolePids processes whose CPU is accounted per role (broker, namesrv, agents, coordinator ...)
     */
    public BrokerProbe(BrokerAdmin admin, List<String> brokerAddrs, Long brokerPid, GcMonitor gc, Map<String, List<Long>> rolePids) {
        this.admin = admin;
        this.brokerAddrs = List.copyOf(brokerAddrs);
        this.brokerPid = brokerPid;
        this.gc = gc;
        this.rolePids = new LinkedHashMap<>(rolePids);
    }

    /**
     * Also snapshots the threads of the role's processes (all of them, as one snapshot) with every sample, as it does
     * the broker's; returns this probe.
     */
    public BrokerProbe threadsOf(String role) {
        threadRoles.add(role);
        return this;
    }

    /** Cheap reads first and together (/proc, then the admin call), so the counters describe the same instant. */
    public BrokerSample sample() throws BrokerAdmin.AdminException {
        BrokerSample s = new BrokerSample();
        s.wallNanos = System.nanoTime();
        s.brokerCpuNanos = brokerPid == null ? null : ProcStat.processCpuNanos(brokerPid);
        s.brokerThreads = brokerPid == null ? null : ThreadSnapshot.of(brokerPid);
        s.machine = ProcStat.machineIdle();
        s.roleCpuNanos = new LinkedHashMap<>();
        for (Map.Entry<String, List<Long>> role : rolePids.entrySet()) {
            long total = 0;
            boolean any = false;
            for (Long pid : role.getValue()) {
                Long cpu = ProcStat.processCpuNanos(pid);
                if (cpu != null) {
                    total += cpu;
                    any = true;
                }
            }
            if (any) {
                s.roleCpuNanos.put(role.getKey(), total);
            }
        }
        s.roleThreads = new LinkedHashMap<>();
        for (String role : threadRoles) {
            List<Long> pids = rolePids.get(role);
            ThreadSnapshot threads = pids == null || pids.isEmpty() ? null : ThreadSnapshot.of(pids);
            if (threads != null) {
                s.roleThreads.put(role, threads);
            }
        }
        long puts = 0;
        long offsets = 0;
        boolean haveOffsets = true;
        List<String> missing = new ArrayList<>();
        for (String addr : brokerAddrs) {
            Map<String, String> info = runtimeInfo(addr);
            String put = info.get("msgPutTotalTodayNow");
            if (put == null) {
                missing.add(addr);
                continue;
            }
            puts += Long.parseLong(put);
            String offset = info.get("commitLogMaxOffset");
            if (offset == null) {
                haveOffsets = false;
            } else {
                offsets += Long.parseLong(offset);
            }
        }
        if (!missing.isEmpty()) {
            throw new BrokerAdmin.AdminException("no msgPutTotalTodayNow in the runtime info of " + missing, null);
        }
        s.putMessages = puts;
        s.commitLogMaxOffset = haveOffsets ? offsets : null;
        double[] gcNow = gc == null ? null : gc.latest();
        if (gcNow != null) {
            s.gcPauseMillis = gcNow[0];
            s.gcCollections = gcNow[1];
        }
        return s;
    }

    /** Retries briefly: a broker answers this request with an error while its stats sampler has not run yet. */
    private Map<String, String> runtimeInfo(String addr) throws BrokerAdmin.AdminException {
        for (int attempt = 1; ; attempt++) {
            try {
                return admin.runtimeInfo(addr);
            } catch (BrokerAdmin.AdminException e) {
                if (attempt >= 5) {
                    throw e;
                }
                try {
                    Thread.sleep(300);
                } catch (InterruptedException ie) {
                    Thread.currentThread().interrupt();
                    throw e;
                }
            }
        }
    }
}
