package dev.rmqpatch.bench.engine;

import dev.rmqpatch.bench.broker.JmxBrokerProbe;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * One variant's cluster that this process did not start (compare --efficiency --remote): its name server(s), and the JMX
 * ports of its master brokers (and, with SYNC_MASTER + SLAVE, of its slaves), which give the brokers' process CPU and GC
 * on their own hosts. Written {@code VARIANT:namesrv=HOST:PORT[;HOST:PORT],jmx=HOST:PORT[,jmx=...][,slave-jmx=HOST:PORT...]}
 * (scripts/run-distributed.sh --efficiency writes it from the cluster file).
 */
public final class RemoteCluster {
    public static final String FORMAT = "VARIANT:namesrv=HOST:PORT[;HOST:PORT],jmx=HOST:PORT[,jmx=HOST:PORT...][,slave-jmx=HOST:PORT...]";

    private final String variant;
    private final String namesrv;
    private final List<String> masterJmx;
    private final List<String> slaveJmx;

    public RemoteCluster(String variant, String namesrv, List<String> masterJmx, List<String> slaveJmx) {
        this.variant = variant;
        this.namesrv = namesrv;
        this.masterJmx = List.copyOf(masterJmx);
        this.slaveJmx = List.copyOf(slaveJmx);
    }

    /** Parses one --remote value; throws IllegalArgumentException naming what is wrong. */
    public static RemoteCluster parse(String spec) {
        int colon = spec.indexOf(':');
        if (colon <= 0) {
            throw new IllegalArgumentException("'" + spec + "' is not " + FORMAT);
        }
        String variant = spec.substring(0, colon).trim();
        String namesrv = null;
        List<String> masters = new ArrayList<>();
        List<String> slaves = new ArrayList<>();
        for (String part : spec.substring(colon + 1).split(",")) {
            String p = part.trim();
            int eq = p.indexOf('=');
            String key = eq < 0 ? p : p.substring(0, eq);
            String value = eq < 0 ? "" : p.substring(eq + 1).trim();
            if (value.isEmpty()) {
                throw new IllegalArgumentException("'" + p + "' in '" + spec + "' is not KEY=VALUE (" + FORMAT + ")");
            }
            switch (key) {
                case "namesrv":
                    if (namesrv != null) {
                        throw new IllegalArgumentException("namesrv given twice in '" + spec + "' (several name servers: HOST:PORT;HOST:PORT)");
                    }
                    for (String n : value.split(";")) {
                        JmxBrokerProbe.parseTargets(n);
                    }
                    namesrv = value;
                    break;
                case "jmx":
                    masters.addAll(JmxBrokerProbe.parseTargets(value));
                    break;
                case "slave-jmx":
                    slaves.addAll(JmxBrokerProbe.parseTargets(value));
                    break;
                default:
                    throw new IllegalArgumentException("unknown key '" + key + "' in '" + spec + "' (" + FORMAT + ")");
            }
        }
        if (namesrv == null || masters.isEmpty()) {
            throw new IllegalArgumentException("'" + spec + "' needs namesrv= and at least one jmx= (" + FORMAT + ")");
        }
        return new RemoteCluster(variant, namesrv, masters, slaves);
    }

    public String variant() {
        return variant;
    }

    /** The name server address(es) as clients take them: HOST:PORT[;HOST:PORT]. */
    public String namesrv() {
        return namesrv;
    }

    public List<String> masterJmx() {
        return masterJmx;
    }

    /** Empty when the cluster has no slaves (or their CPU is not to be counted). */
    public List<String> slaveJmx() {
        return slaveJmx;
    }

    /** As results.json records it. */
    public Map<String, Object> describe() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("variant", variant);
        m.put("namesrv", namesrv);
        m.put("masterJmx", masterJmx);
        if (!slaveJmx.isEmpty()) {
            m.put("slaveJmx", slaveJmx);
        }
        return m;
    }

    @Override
    public String toString() {
        return variant + ":namesrv=" + namesrv + ",jmx=" + String.join(",jmx=", masterJmx)
            + (slaveJmx.isEmpty() ? "" : ",slave-jmx=" + String.join(",slave-jmx=", slaveJmx));
    }
}
