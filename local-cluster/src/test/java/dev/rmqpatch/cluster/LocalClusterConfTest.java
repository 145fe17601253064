package dev.rmqpatch.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.StringReader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Properties;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The confs LocalCluster writes, without starting anything: roles, ids, ports and paths per topology. */
class LocalClusterConfTest {
    @TempDir
    Path dir;

    private LocalCluster cluster(Topology topology, LocalCluster.Ports ports) throws Exception {
        Path dist = dir.resolve("dist");
        Files.createDirectories(dist.resolve("conf"));
        // The shipped tuned conf's shape: an ASYNC_MASTER that the ms-sync topology must turn into SYNC_MASTER.
        Files.writeString(dist.resolve("conf/broker-tuned.conf"), String.join("\n",
            "brokerClusterName=DefaultCluster", "brokerName=broker-a", "brokerId=0", "brokerRole=ASYNC_MASTER",
            "flushDiskType=SYNC_FLUSH", "sendMessageThreadPoolNums=4", ""));
        LocalCluster.Spec spec = new LocalCluster.Spec();
        spec.dist = dist;
        spec.confName = "broker-tuned.conf";
        spec.topology = topology;
        spec.workDir = dir.resolve("run");
        spec.overrides.put("sendMessageThreadPoolNums", "2");
        return new LocalCluster(spec, ports);
    }

    private static Properties props(String text) throws Exception {
        Properties p = new Properties();
        p.load(new StringReader(text));
        return p;
    }

    @Test
    void a5xSlaveTakesTheMastersHaAddressFromTheNameServerAndIts5xMasterWaitsForIt() throws Exception {
        LocalCluster c = cluster(Topology.MS_SYNC, LocalCluster.Ports.allocate(Topology.MS_SYNC));
        Files.createDirectories(dir.resolve("dist/lib"));
        Files.writeString(dir.resolve("dist/lib/rocketmq-broker-5.3.3.jar"), "");
        assertEquals(5, LocalCluster.brokerMajorVersion(dir.resolve("dist")));
        Properties s = props(c.slaveConfText());
        assertEquals("SLAVE", s.getProperty("brokerRole"));
        assertNull(s.getProperty("haMasterAddress"));
        // 5.x's SYNC_MASTER waits for the slave only with inSyncReplicas >= 2; the slave needs none.
        assertEquals("2", props(c.masterConfText()).getProperty("inSyncReplicas"));
        assertNull(s.getProperty("inSyncReplicas"));
        Files.delete(dir.resolve("dist/lib/rocketmq-broker-5.3.3.jar"));
        Files.writeString(dir.resolve("dist/lib/rocketmq-broker-4.9.8.jar"), "");
        assertEquals(4, LocalCluster.brokerMajorVersion(dir.resolve("dist")));
        assertNull(props(c.masterConfText()).getProperty("inSyncReplicas"));
        assertEquals("127.0.0.1:" + props(c.masterConfText()).getProperty("haListenPort"), props(c.slaveConfText()).getProperty("haMasterAddress"));
    }

    @Test
    void msSyncWritesASyncMasterAndItsSlave() throws Exception {
        LocalCluster.Ports ports = LocalCluster.Ports.allocate(Topology.MS_SYNC);
        LocalCluster c = cluster(Topology.MS_SYNC, ports);
        Properties m = props(c.masterConfText());
        Properties s = props(c.slaveConfText());

        assertEquals("0", m.getProperty("brokerId"));
        assertEquals("SYNC_MASTER", m.getProperty("brokerRole"));
        assertEquals("1", s.getProperty("brokerId"));
        assertEquals("SLAVE", s.getProperty("brokerRole"));
        for (Properties p : List.of(m, s)) {
            assertEquals("ASYNC_FLUSH", p.getProperty("flushDiskType"));
            assertEquals("broker-a", p.getProperty("brokerName"));
            assertEquals("DefaultCluster", p.getProperty("brokerClusterName"));
            assertEquals("127.0.0.1", p.getProperty("brokerIP1"));
            assertEquals("127.0.0.1", p.getProperty("brokerIP2"));
            assertEquals(c.namesrvAddr(), p.getProperty("namesrvAddr"));
            assertEquals("2", p.getProperty("sendMessageThreadPoolNums"), "the variant's overrides apply to both");
            // 4.9's BrokerStartup sets haListenPort to listenPort+1 whatever the conf says; the conf must agree.
            assertEquals(Integer.parseInt(p.getProperty("listenPort")) + 1, Integer.parseInt(p.getProperty("haListenPort")));
            assertTrue(Path.of(p.getProperty("storePathRootDir")).startsWith(dir.resolve("run").toAbsolutePath()));
            assertTrue(Path.of(p.getProperty("storePathCommitLog")).startsWith(Path.of(p.getProperty("storePathRootDir"))));
        }
        assertEquals("127.0.0.1:" + m.getProperty("haListenPort"), s.getProperty("haMasterAddress"));
        assertNull(m.getProperty("haMasterAddress"));
        assertNotEquals(m.getProperty("storePathRootDir"), s.getProperty("storePathRootDir"));
        assertEquals("127.0.0.1:" + m.getProperty("listenPort"), c.brokerAddr());
        assertEquals("127.0.0.1:" + s.getProperty("listenPort"), c.slaveAddr());

        int master = Integer.parseInt(m.getProperty("listenPort"));
        int slave = Integer.parseInt(s.getProperty("listenPort"));
        List<Integer> bound = List.of(ports.namesrv(), master, master - 2, master + 1, slave, slave - 2, slave + 1);
        assertEquals(bound.size(), new HashSet<>(bound).size(), "name server, listen, VIP (-2) and HA ports all distinct: " + bound);
        assertEquals(new HashSet<>(bound), new HashSet<>(ports.bound()));
    }

    @Test
    void twoMastersWritesTwoAsyncMastersOfTheirOwnNames() throws Exception {
        LocalCluster.Ports ports = LocalCluster.Ports.allocate(Topology.TWO_MASTERS);
        LocalCluster c = cluster(Topology.TWO_MASTERS, ports);
        Properties a = props(c.masterConfText());
        Properties b = props(c.secondMasterConfText());

        assertEquals(LocalCluster.FIRST_MASTER, a.getProperty("brokerName"));
        assertEquals(LocalCluster.SECOND_MASTER, b.getProperty("brokerName"));
        assertEquals(LocalCluster.FIRST_MASTER, c.brokerName());
        for (Properties p : List.of(a, b)) {
            assertEquals("0", p.getProperty("brokerId"));
            assertEquals("ASYNC_MASTER", p.getProperty("brokerRole"));
            assertEquals("ASYNC_FLUSH", p.getProperty("flushDiskType"));
            assertEquals("DefaultCluster", p.getProperty("brokerClusterName"));
            assertEquals(c.namesrvAddr(), p.getProperty("namesrvAddr"));
            assertEquals("2", p.getProperty("sendMessageThreadPoolNums"), "the variant's overrides apply to both");
            assertFalse(p.containsKey("haMasterAddress"));
        }
        assertNotEquals(a.getProperty("storePathRootDir"), b.getProperty("storePathRootDir"));
        assertNotEquals(a.getProperty("listenPort"), b.getProperty("listenPort"));
        assertNull(c.slave());
        assertNull(c.slaveAddr());
        assertThrows(IllegalStateException.class, c::slaveConfText);
        assertEquals(2, c.brokers().size());
        assertEquals(7, new HashSet<>(ports.bound()).size(), "name server and both brokers' three ports, all distinct");
    }

    @Test
    void onlyTwoMastersHasASecondMaster() throws Exception {
        assertNull(cluster(Topology.SINGLE, LocalCluster.Ports.allocate(Topology.SINGLE)).secondMaster());
        LocalCluster ms = cluster(Topology.MS_SYNC, LocalCluster.Ports.allocate(Topology.MS_SYNC));
        assertNull(ms.secondMaster());
        assertThrows(IllegalStateException.class, ms::secondMasterConfText);
        assertEquals("broker-a", props(ms.slaveConfText()).getProperty("brokerName"), "ms-sync keeps the conf's name");
    }

    @Test
    void portsNeverCollideOverManyAllocations() throws Exception {
        for (int i = 0; i < 30; i++) {
            List<Integer> bound = LocalCluster.Ports.allocate(Topology.MS_SYNC).bound();
            Set<Integer> distinct = new HashSet<>(bound);
            assertEquals(7, bound.size());
            assertEquals(bound.size(), distinct.size(), bound.toString());
        }
    }

    @Test
    void singleKeepsTheConfsRoleAndHasNoSlave() throws Exception {
        LocalCluster c = cluster(Topology.SINGLE, LocalCluster.Ports.allocate(Topology.SINGLE));
        Properties m = props(c.masterConfText());
        assertEquals("ASYNC_MASTER", m.getProperty("brokerRole"));
        assertEquals("SYNC_FLUSH", m.getProperty("flushDiskType"), "single does not touch the conf's flush type");
        assertFalse(m.containsKey("haListenPort"));
        assertFalse(m.containsKey("brokerIP2"));
        assertNull(c.slaveAddr());
        assertThrows(IllegalStateException.class, c::slaveConfText);
        assertEquals(4, c.ports().bound().size());
    }

    @Test
    void setOptionsStillComeLastSoTheyCanChangeTheTopologysSettings() throws Exception {
        LocalCluster c = cluster(Topology.MS_SYNC, LocalCluster.Ports.allocate(Topology.MS_SYNC));
        // --set KEY=VALUE lands in the spec's overrides; e.g. the article's sync-flush variant of the same pair.
        c.spec().overrides.put("flushDiskType", "SYNC_FLUSH");
        assertEquals("SYNC_FLUSH", props(c.masterConfText()).getProperty("flushDiskType"));
        assertEquals("SYNC_FLUSH", props(c.slaveConfText()).getProperty("flushDiskType"));
        assertEquals("SLAVE", props(c.slaveConfText()).getProperty("brokerRole"));
    }

    @Test
    void topologyNamesAreParsedAndBadOnesListTheAllowedValues() {
        assertEquals(Topology.SINGLE, Topology.parse("single"));
        assertEquals(Topology.MS_SYNC, Topology.parse("ms-sync"));
        assertEquals(Topology.TWO_MASTERS, Topology.parse("two-masters"));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Topology.parse("ms-async"));
        assertTrue(e.getMessage().contains("'ms-async'") && e.getMessage().contains("single, ms-sync"), e.getMessage());
    }
}
