package dev.rmqpatch.bench.efficiency;

import dev.rmqpatch.cluster.ChildProcesses;
import dev.rmqpatch.cluster.LocalCluster;
import dev.rmqpatch.cluster.ManagedProcess;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Which processes' CPU a window of one variant (or client) counts under which role: its broker ("broker"), its slave
 * ({@link EfficiencyPlan#SLAVE_ROLE}), the other variants' idle brokers, the name servers, the harness's own processes,
 * and any other child process ("helpers"), so that the machine's busy CPU not explained by any of them is other load.
 */
final class RoleAccounting {

    private RoleAccounting() {
    }

    /** Variant {@code i}'s broker, its slave, and every other process of the run (base: agents, coordinator ...). */
    static Map<String, List<Long>> of(List<LocalCluster> clusters, int i, Map<String, List<Long>> base) {
        Map<String, List<Long>> roles = new LinkedHashMap<>();
        LocalCluster own = clusters.get(i);
        roles.put("broker", List.of(own.brokerPid()));
        if (own.slaveProcess() != null) {
            roles.put(EfficiencyPlan.SLAVE_ROLE, List.of(own.slaveProcess().pid()));
        }
        List<Long> idle = new ArrayList<>();
        List<Long> namesrvs = new ArrayList<>();
        for (LocalCluster c : clusters) {
            namesrvs.add(c.namesrvPid());
            if (c != own) {
                idle.add(c.brokerPid());
                if (c.slaveProcess() != null) {
                    idle.add(c.slaveProcess().pid());
                }
            }
        }
        roles.put("idle brokers", idle);
        roles.put("namesrv", namesrvs);
        roles.putAll(base);
        return withHelpers(roles);
    }

    /**
     * --clients: the one cluster's broker (and slave), its name server, the window's client's agent JVMs
     * ({@link WindowRunner#CLIENT_ROLE}), the other clients' (idle) agents, the producers feeding consumers, the
     * coordinator, and any other child process.
     */
    static Map<String, List<Long>> ofClient(LocalCluster cluster, List<Long> client, List<Long> idleClients, List<Long> loadAgents) {
        Map<String, List<Long>> roles = new LinkedHashMap<>();
        roles.put("broker", List.of(cluster.brokerPid()));
        if (cluster.slaveProcess() != null) {
            roles.put(EfficiencyPlan.SLAVE_ROLE, List.of(cluster.slaveProcess().pid()));
        }
        roles.put(WindowRunner.CLIENT_ROLE, client);
        roles.put("idle clients", idleClients);
        roles.put("load agents", loadAgents);
        roles.put("namesrv", List.of(cluster.namesrvPid()));
        roles.put("coordinator", List.of(ProcessHandle.current().pid()));
        return withHelpers(roles);
    }

    /** Adds "helpers": every live child process no role names. */
    private static Map<String, List<Long>> withHelpers(Map<String, List<Long>> roles) {
        Set<Long> known = new LinkedHashSet<>();
        roles.values().forEach(known::addAll);
        List<Long> helpers = new ArrayList<>();
        for (ManagedProcess p : ChildProcesses.live()) {
            if (!known.contains(p.pid())) {
                helpers.add(p.pid());
            }
        }
        roles.put("helpers", helpers);
        return roles;
    }

}
