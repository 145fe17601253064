package dev.rmqpatch.bench.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.abort;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import dev.rmqpatch.bench.engine.Variant;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The bare-metal tooling without real hosts: scripts/netns-test.sh deploys a name server, a SYNC_MASTER, its SLAVE and
 * two agents to network-namespace hosts, once through `ip netns exec` (a workload file, JMX over TLS) and once over ssh
 * (skipped where no sshd is installed), and checks replication, the merged results and, with the cluster still up, the
 * access control of the agents (token, allowlist) and the brokers' JMX (read-only password login, cluster address
 * only) itself; without hosts, the confs deploy/lib writes against what the harness's {@link Variant} says and the
 * coordinator's command line; scripts/os-tuning.sh only reads here (it would change this machine's kernel settings).
 */
class BareMetalScriptsIT {
    /** netns-test.sh's "namespaces are not permitted here" status: a skip, not a failure. */
    private static final int NO_NAMESPACES = 77;

    @TempDir
    Path dir;

    /**
     * One namespace run (each costs about a minute) for two cases. The distributed run of a workload file:
     * run-distributed.sh --workload with a file that names a payload file (found under --payload-dir, made by
     * make-payloads.sh) and has keys, two producers and two consumers; both files reach the coordinator's host, which
     * runs them, and every acknowledged message is consumed. And the brokers' JMX over TLS (broker_jmx = tls, keystore
     * made at push): the password reads over TLS, and a client without TLS is refused.
     */
    @Test
    @Timeout(420)
    void distributedRunOfAWorkloadFileOverNamespaceHostsWithJmxOverTls() throws Exception {
        Path payloads = dir.resolve("payloads");
        Run make = run(Map.of(), "scripts/make-payloads.sh", "--dir", payloads.toString());
        assertEquals(0, make.rc, make.output);
        String output = namespaceRun("netns", "--broker-jmx", "tls",
            "--workload", Dists.repoRoot().resolve("workloads/keys-round-robin-1kb-2p-2c.yaml").toString(), "--payload-dir", payloads.toString());
        for (String check : List.of("the workload file reached the coordinator's host unchanged (keys-round-robin-1kb-2p-2c.yaml)",
            "its payload file reached the coordinator's host beside it (payload/payload-1Kb.data, 1024 bytes",
            "the coordinator sent the bodies of the payload file (payload file payload/payload-1Kb.data)",
            "the coordinator ran the workload 'keys-round-robin-1-topic-6-queues-1kb-2p-2c'", "omb-result.json written",
            "consumption counted:", "copying the workload file and its payload file (payload/payload-1Kb.data)",
            "JMX with the password (tls): reads the CPU MBean, invoking gc() refused", "without TLS: refused")) {
            assertTrue(output.contains(check), check + ":\n" + output);
        }
    }

    /** A workload or payload file found nowhere stops run-distributed.sh before anything is deployed, naming the path. */
    @Test
    @Timeout(60)
    void runDistributedRefusesAMissingWorkloadOrPayloadFileBeforeDeploying() throws Exception {
        Dists.patched();
        String conf = Dists.repoRoot().resolve("deploy/examples/netns.conf").toString();
        Path out = dir.resolve("never");
        Run none = run(Map.of(), "scripts/run-distributed.sh", "-c", conf, "--workload", dir.resolve("none.yaml").toString(), "--out", out.toString());
        assertEquals(2, none.rc, none.output);
        assertTrue(none.output.contains("no workload file " + dir.resolve("none.yaml")), none.output);
        Path w = dir.resolve("w.yaml");
        Files.writeString(w, "name: w\nmessageSize: 1024\npayloadFile: \"payload/payload-1Kb.data\"\n");
        Path empty = Files.createDirectories(dir.resolve("empty"));
        Run missing = run(Map.of(), "scripts/run-distributed.sh", "-c", conf, "--workload", w.toString(), "--payload-dir", empty.toString(),
            "--out", out.toString());
        assertEquals(2, missing.rc, missing.output);
        assertTrue(missing.output.contains("payloadFile 'payload/payload-1Kb.data' not found; tried " + dir.resolve("payload/payload-1Kb.data")
            + ", " + empty.resolve("payload/payload-1Kb.data")), missing.output);
        Run orphan = run(Map.of(), "scripts/run-distributed.sh", "-c", conf, "--payload-dir", empty.toString(), "--out", out.toString());
        assertEquals(2, orphan.rc, orphan.output);
        assertTrue(orphan.output.contains("--payload-dir goes with --workload"), orphan.output);
        assertTrue(Files.notExists(out), "nothing started, no results folder");
        Run help = run(Map.of(), "scripts/run-distributed.sh", "--help");
        assertTrue(help.output.contains("--workload FILE") && help.output.contains("--payload-dir DIR"), help.output);
    }

    /**
     * Every script in scripts/ answers --help with its usage (exit 0) and refuses an unknown flag with exit 2 and a
     * pointer to --help. compare.sh's text is the harness's own, so it needs the harness jar only.
     */
    @Test
    @Timeout(120)
    void everyScriptAnswersHelpAndRefusesAnUnknownFlag() throws Exception {
        Dists.benchJar();
        List<String> scripts;
        try (var files = Files.list(Dists.repoRoot().resolve("scripts"))) {
            scripts = files.map(f -> f.getFileName().toString()).filter(n -> n.endsWith(".sh")).sorted().toList();
        }
        assertTrue(scripts.contains("compare.sh") && scripts.size() >= 10, scripts.toString());
        for (String script : scripts) {
            Run help = run(Map.of(), "scripts/" + script, "--help");
            assertEquals(0, help.rc, script + " --help: " + help.output);
            assertTrue(help.output.toLowerCase(java.util.Locale.ROOT).contains("usage") && help.output.contains(script),
                script + " --help names itself in a usage text: " + help.output);
            Run wrong = run(Map.of(), "scripts/" + script, "--no-such-flag");
            assertEquals(2, wrong.rc, script + " --no-such-flag: " + wrong.output);
            assertTrue(wrong.output.contains("--no-such-flag") && wrong.output.contains("--help"),
                script + " names the wrong flag and --help: " + wrong.output);
        }
    }

    /**
     * scripts/netns-test.sh --efficiency: 4.9.0-tuned and 4.9.0-patched (SYNC_MASTER + SLAVE each) deployed at once on
     * namespace hosts, compare --efficiency against them with their CPU over JMX. About a minute and a half of CI time on
     * 2 cores, so it runs only with -Drmqpatch.netnsEfficiency=true (or by hand: scripts/netns-test.sh --efficiency).
     */
    @Test
    @Timeout(420)
    void efficiencyComparisonAgainstBrokersOnNamespaceHosts() throws Exception {
        assumeTrue(Boolean.getBoolean("rmqpatch.netnsEfficiency"), "CI-optional: -Drmqpatch.netnsEfficiency=true runs it");
        Dists.patched();
        Dists.stock();
        Path out = dir.resolve("netns-efficiency");
        Run run = run(Map.of(), "scripts/netns-test.sh", "--efficiency", "--timeout", "240", "--out", out.toString());
        if (run.rc == NO_NAMESPACES) {
            abort("not possible here: " + run.output);
        }
        assertEquals(0, run.rc, run.output);
        for (String check : List.of("PASSED", "compare --efficiency status ok", "broker CPU from the remote brokers' JMX (cpuSource jmx)",
            "each variant read over its own JMX ports", "4.9.0-tuned: both measured windows have master and slave CPU per message > 0",
            "4.9.0-patched: both measured windows have master and slave CPU per message > 0", "4.9.0-patched / 4.9.0-tuned: ratio ",
            "every measured window held", "caught up")) {
            assertTrue(run.output.contains(check), check + ":\n" + run.output);
        }
    }

    /**
     * scripts/netns-test.sh --saturation-ab: run-distributed.sh --variants 4.9.0-tuned,4.9.0-patched --rounds 2, the
     * saturation A/B over namespace hosts (interleaved rounds, each a fresh SYNC_MASTER + SLAVE of one variant), merged into
     * one results.json with compare's statistics. About 4 minutes on 2 cores, so it runs only with
     * -Drmqpatch.netnsSaturationAb=true (or by hand: scripts/netns-test.sh --saturation-ab).
     */
    @Test
    @Timeout(600)
    void saturationAbOverNamespaceHostsMergesFreshRoundsIntoOneComparison() throws Exception {
        assumeTrue(Boolean.getBoolean("rmqpatch.netnsSaturationAb"), "CI-optional: -Drmqpatch.netnsSaturationAb=true runs it");
        Dists.patched();
        Dists.stock();
        Path out = dir.resolve("netns-saturation-ab");
        Run run = run(Map.of(), "scripts/netns-test.sh", "--saturation-ab", "--timeout", "480", "--out", out.toString());
        if (run.rc == NO_NAMESPACES) {
            abort("not possible here: " + run.output);
        }
        assertEquals(0, run.rc, run.output);
        for (String check : List.of("PASSED", "merged results status ok", "both variants merged: 4.9.0-tuned,4.9.0-patched",
            "4.9.0-tuned: 2 rounds (1,2), each ok", "4.9.0-patched: 2 rounds (1,2), each ok", "round 1 of 4.9.0-tuned started on a fresh store",
            "round 2 of 4.9.0-tuned started on a fresh store", "round 2 of 4.9.0-patched started on a fresh store",
            "4.9.0-patched / 4.9.0-tuned: msg/s ", "table.txt has the spread verdict", "caught up (round 2-4.9.0-patched)")) {
            assertTrue(run.output.contains(check), check + ":\n" + run.output);
        }
        assertTrue(Files.isRegularFile(out.resolve("runs/2-4.9.0-patched/results.json")), "each round's own results are kept");
    }

    /** --variants A,B without --efficiency (the saturation A/B): its flags are checked before anything is deployed. */
    @Test
    @Timeout(60)
    void runDistributedSaturationAbChecksItsFlagsBeforeDeploying() throws Exception {
        String conf = Dists.repoRoot().resolve("deploy/examples/netns.conf").toString();
        Path never = dir.resolve("never");
        Map<List<String>, String> bad = Map.of(
            List.of("--variants", "4.9.0-tuned"), "--variants needs at least two variants",
            List.of("--variants", "4.9.0-tuned,4.9.0-nope"), "variant '4.9.0-nope' is not",
            List.of("--variants", "4.9.0-tuned,4.9.0-patched", "--rounds", "0"), "--rounds needs a whole number (1 or more), not '0'",
            List.of("--rounds", "2"), "--rounds goes with --variants A,B",
            List.of("--variants", "4.9.0-tuned,4.9.0-patched", "--variant", "4.9.0"), "--variant (one) does not go with it",
            List.of("--variants", "4.9.0-tuned,4.9.0-patched", "--keep-store"), "every round starts from a fresh store",
            List.of("--variants", "4.9.0-tuned,4.9.0-patched", "--baseline", "4.9.1"), "--baseline 4.9.1 is not one of --variants",
            List.of("--efficiency", "--rounds", "2"), "--rounds goes with the saturation A/B");
        for (Map.Entry<List<String>, String> c : bad.entrySet()) {
            List<String> args = new ArrayList<>(List.of("-c", conf, "--out", never.toString()));
            args.addAll(c.getKey());
            Run r = run(Map.of(), "scripts/run-distributed.sh", args.toArray(new String[0]));
            assertEquals(2, r.rc, c.getKey() + ": " + r.output);
            assertTrue(r.output.contains(c.getValue()), c.getKey() + ": " + r.output);
        }
        assertTrue(Files.notExists(never), "nothing started, no results folder");

        // One round of the second variant (ONLY_SLOT 1): only its name server and brokers are touched, and the coordinator
        // runs bench run against its name server and its master's JMX port (no java: cluster_load and the args are bash).
        Run r = run(Map.of("CONF", conf, "ROOT", Dists.repoRoot().toString(), "SECRETS_DIR", dir.resolve("s").toString()),
            "bash", "-c", "set -euo pipefail; PROG=test; WORK=$(mktemp -d); "
                + "for f in common cluster transport artifacts hosts confs push instances admin coordinator secrets; do . \"$ROOT/deploy/lib/$f.sh\"; done; "
                + "EFF_VARIANTS=(4.9.0-tuned 4.9.0-patched); SET_OVERRIDES=(secrets_dir=$SECRETS_DIR); cluster_load \"$CONF\"; "
                + "use_slot 1; ONLY_SLOT=1; echo \"== dirs $(_select_dirs ns-master all) $(_select_dirs ns-agent1 all)\"; "
                + "echo '== coordinator'; coordinator_args /out; rm -rf \"$WORK\"");
        assertEquals(0, r.rc, r.output);
        assertTrue(r.output.contains("== dirs '/tmp/rmqpatch-netns/ns-master/instances/broker-ns-master-0-master-v2'  "
            + "'/tmp/rmqpatch-netns/ns-agent1/instances/agent-7070'"), r.output);
        String coordinator = r.output.split("== coordinator\n", 2)[1];
        assertTrue(coordinator.startsWith("run\n--namesrv\n10.77.0.10:10876\n") && coordinator.contains("--broker-jmx\n10.77.0.11:11914\n"),
            coordinator);
    }

    /**
     * Without hosts: --efficiency's flags are checked before anything is deployed, and with --variants every name server and
     * broker is planned once per variant (the second on ports + 1000, its own store), the agents allowed for both variants'
     * name servers, and the coordinator runs compare --efficiency with each variant's name server and JMX ports.
     */
    @Test
    @Timeout(120)
    void runDistributedEfficiencyPlansEveryVariantOnItsOwnPortsAndChecksItsFlags() throws Exception {
        Dists.patched();
        Dists.stock();
        Dists.benchJar();
        String conf = Dists.repoRoot().resolve("deploy/examples/netns.conf").toString();
        Path never = dir.resolve("never");
        for (List<String> bad : List.of(List.of("--window", "2"), List.of("--efficiency", "--variant", "4.9.0-patched"),
            List.of("--efficiency", "--variants", "4.9.0-tuned"), List.of("--efficiency", "--pairs", "0"),
            List.of("--efficiency", "--variants", "4.9.0-tuned,4.9.0-tuned"), List.of("--efficiency", "--set", "broker_jmx=off"),
            List.of("--efficiency", "--variants", "4.9.0-tuned,4.9.0-nope"), List.of("--efficiency", "--baseline", "4.9.1"))) {
            List<String> args = new ArrayList<>(List.of("-c", conf, "--out", never.toString()));
            args.addAll(bad);
            Run r = run(Map.of(), "scripts/run-distributed.sh", args.toArray(new String[0]));
            assertEquals(2, r.rc, bad + ": " + r.output);
        }
        assertTrue(Files.notExists(never), "nothing started, no results folder");
        Run help = run(Map.of(), "scripts/run-distributed.sh", "--help");
        assertTrue(help.output.contains("--efficiency") && help.output.contains("--variants A,B"), help.output);

        Run r = run(Map.of("CONF", conf, "ROOT", Dists.repoRoot().toString(), "SECRETS_DIR", dir.resolve("s").toString()),
            "bash", "-c", "set -euo pipefail; PROG=test; WORK=$(mktemp -d); "
                + "for f in common cluster transport artifacts hosts confs push instances admin coordinator secrets; do . \"$ROOT/deploy/lib/$f.sh\"; done; "
                + "EFF_VARIANTS=(4.9.0-tuned 4.9.0-patched); SET_OVERRIDES=(secrets_dir=$SECRETS_DIR); cluster_load \"$CONF\"; check_local_artifacts; "
                + "for h in ns-namesrv ns-master ns-agent1; do _NPROC[$h]=2; generate_host $h \"$WORK/$h\"; done; "
                + "for i in ns-master/instances/broker-ns-master-0-master ns-master/instances/broker-ns-master-0-master-v2; do "
                + "echo \"== $i\"; grep -E '^(listenPort|namesrvAddr|storePathRootDir)=|^# written' \"$WORK/$i/broker.conf\"; done; "
                + "echo '== agent'; cat \"$WORK/ns-agent1/instances/agent-7070/instance.env\"; "
                + "echo '== coordinator'; EFF_PAIRS=2; coordinator_args /out; rm -rf \"$WORK\"");
        assertEquals(0, r.rc, r.output);
        String first = r.output.split("== ns-master/instances/broker-ns-master-0-master\n", 2)[1].split("\n== ", 2)[0];
        String second = r.output.split("== ns-master/instances/broker-ns-master-0-master-v2\n", 2)[1].split("\n== ", 2)[0];
        assertTrue(first.contains("of rocketmq-4.9.0-stock (variant 4.9.0-tuned)") && first.contains("listenPort=10911")
            && first.contains("namesrvAddr=10.77.0.10:9876\n"), first);
        assertTrue(second.contains("of rocketmq-4.9.0-patched (variant 4.9.0-patched)") && second.contains("listenPort=11911")
            && second.contains("namesrvAddr=10.77.0.10:10876\n") && second.contains("storePathRootDir=/tmp/rmqpatch-netns/ns-master/store/broker-ns-master-0-master-v2"), second);
        assertTrue(r.output.split("== agent\n", 2)[1].contains("10.77.0.10:9876\\;10.77.0.10:10876"), r.output);
        String coordinator = r.output.split("== coordinator\n", 2)[1];
        for (String arg : List.of("compare\n--efficiency\n--variants\n4.9.0-tuned,4.9.0-patched\n",
            "--remote\n4.9.0-tuned:namesrv=10.77.0.10:9876,jmx=10.77.0.11:10914,slave-jmx=10.77.0.12:10914\n",
            "--remote\n4.9.0-patched:namesrv=10.77.0.10:10876,jmx=10.77.0.11:11914,slave-jmx=10.77.0.12:11914\n",
            "--agent\n10.77.0.21:7070\n--agent\n10.77.0.22:7070\n", "--topology\nms-sync\n", "--pairs\n2\n")) {
            assertTrue(coordinator.contains(arg), arg + ":\n" + coordinator);
        }
    }

    /** The transport real hosts use: sshd in every namespace host, the scripts on a control namespace. */
    @Test
    @Timeout(420)
    void distributedRunOverSshToNamespaceHosts() throws Exception {
        namespaceRun("ssh");
    }

    /**
     * Without hosts, through every deploy/lib file: the broker.conf push writes starts from the conf the harness's
     * Variant names and appends the settings it gives for the host's cores (the rule is written there only), before the
     * cluster file's broker.* lines; and the coordinator's command line without --workload (the namespace runs above
     * give one) carries the cluster file's workload.
     */
    @Test
    @Timeout(120)
    void brokerConfsFollowTheHarnessesVariantAndTheCoordinatorGetsTheClusterFilesWorkload() throws Exception {
        Dists.patched();
        Dists.stock();
        Dists.benchJar();
        String conf = Dists.repoRoot().resolve("deploy/examples/netns.conf").toString();
        for (String name : List.of("4.9.0", "4.9.0-tuned", "4.9.0-patched")) {
            Variant v = Variant.parse(name);
            Run r = run(Map.of("CONF", conf, "VARIANT", name, "ROOT", Dists.repoRoot().toString(), "SECRETS_DIR", dir.resolve("s").toString()),
                "bash", "-c", "set -euo pipefail; PROG=test; WORK=$(mktemp -d); "
                    + "for f in common cluster transport artifacts hosts confs push instances admin coordinator secrets; do . \"$ROOT/deploy/lib/$f.sh\"; done; "
                    + "SET_OVERRIDES=(variant=$VARIANT secrets_dir=$SECRETS_DIR); cluster_load \"$CONF\"; check_local_artifacts; "
                    + "for c in 1 3 4 32; do _NPROC[ns-master]=$c; generate_host ns-master \"$WORK/$c\"; echo \"== $c\"; "
                    + "cat \"$WORK/$c/instances/broker-ns-master-0-master/broker.conf\"; done; "
                    + "echo '== coordinator'; coordinator_args /out; rm -rf \"$WORK\"");
            assertEquals(0, r.rc, r.output);
            for (int cores : new int[] {1, 3, 4, 32}) {
                String brokerConf = r.output.split("== " + cores + "\n", 2)[1].split("\n== ", 2)[0];
                assertTrue(brokerConf.startsWith("# written by scripts/deploy.sh push for ns-master/broker-ns-master-0-master: conf/"
                    + v.confName() + " of " + v.distName() + " "), name + ": " + brokerConf);
                String instance = brokerConf.split("# --- instance", 2)[1].split("# --- broker\\.\\* settings", 2)[0];
                List<String> variantSets = instance.lines().dropWhile(l -> !l.startsWith("defaultTopicQueueNums=")).skip(1)
                    .filter(l -> !l.startsWith("#")).toList();
                List<String> expected = v.overrides(cores).entrySet().stream().map(e -> e.getKey() + "=" + e.getValue()).toList();
                assertEquals(expected, variantSets, name + " on " + cores + " cores:\n" + brokerConf);
                assertTrue(brokerConf.strip().endsWith("# --- broker.* settings of the cluster file ---\nsendMessageThreadPoolNums=2"),
                    "the cluster file's broker.* lines come last:\n" + brokerConf);
            }
            String coordinator = r.output.split("== coordinator\n", 2)[1];
            for (String arg : List.of("run\n--namesrv\n10.77.0.10:9876\n--agent\n10.77.0.21:7070\n--agent\n10.77.0.22:7070\n",
                "--partitions\n18\n--size\n300\n--rate\n0\n--warmup\n", "--consumers\n0\n--out\n/out\n", "--broker-jmx\n10.77.0.11:10914\n")) {
                assertTrue(coordinator.contains(arg), arg + ":\n" + coordinator);
            }
        }
    }

    private String namespaceRun(String transport, String... more) throws Exception {
        Dists.patched();
        Path out = dir.resolve("netns-" + transport);
        List<String> args = new ArrayList<>(List.of("--transport", transport, "--timeout", "240", "--out", out.toString()));
        args.addAll(List.of(more));
        Run run = run(Map.of(), "scripts/netns-test.sh", args.toArray(new String[0]));
        if (run.rc == NO_NAMESPACES) {
            abort("not possible here: " + run.output);
        }
        assertEquals(0, run.rc, run.output);
        assertTrue(run.output.contains("PASSED"), run.output);
        assertTrue(run.output.contains("caught up"), run.output);
        assertTrue(run.output.contains("transport " + transport), run.output);
        assertTrue(Files.isDirectory(out.resolve("hosts")), "logs collected from the hosts");
        for (String check : List.of("without the password: refused", "invoking gc() refused", "without a token: 401", "with a wrong token: 401",
            "with the token: 200", "(not in its allowlist): 403", "credentials are 0700/0600")) {
            assertTrue(run.output.contains(check), check + ":\n" + run.output);
        }
        return run.output;
    }

    @Test
    @Timeout(60)
    void netnsTestRejectsAnUnknownTransportBeforeTouchingAnything() throws Exception {
        Run run = run(Map.of(), "scripts/netns-test.sh", "--transport", "telnet");
        assertEquals(2, run.rc, run.output);
        assertTrue(run.output.contains("--transport must be netns or ssh, not 'telnet'"), run.output);
    }

    /** deploy's credentials on the control host and what one broker host gets: owner-only from the start, kept, checked. */
    @Test
    @Timeout(120)
    void deployCredentialsAreOwnerOnlyKeptAndChecked() throws Exception {
        Path secrets = dir.resolve("secrets");
        String conf = Dists.repoRoot().resolve("deploy/examples/netns.conf").toString();
        Run first = run(Map.of(), "scripts/deploy.sh", "credentials", "-c", conf, "--set", "secrets_dir=" + secrets, "--set", "broker_jmx=tls");
        assertEquals(0, first.rc, first.output);
        assertTrue(first.output.contains("agent HTTP API, token required"), first.output);
        assertEquals("rwx------", mode(secrets));
        for (String f : List.of("agent.token", "jmx.credentials", "jmx-keystore.p12", "jmx-keystore.pass", "jmx-cert.pem")) {
            assertEquals("rw-------", mode(secrets.resolve(f)), f);
        }
        String token = Files.readString(secrets.resolve("agent.token")).strip();
        assertTrue(token.matches("[0-9a-f]{64}"), "64 random hex digits");
        String credentials = Files.readString(secrets.resolve("jmx.credentials")).strip();
        assertTrue(credentials.matches("rmqpatch-monitor [0-9a-f]{64}"), "USER PASSWORD");
        try (var in = Files.newInputStream(secrets.resolve("jmx-cert.pem"))) {
            assertEquals(1, java.security.cert.CertificateFactory.getInstance("X.509").generateCertificates(in).size());
        }

        Run again = run(Map.of(), "scripts/deploy.sh", "credentials", "-c", conf, "--set", "secrets_dir=" + secrets);
        assertEquals(0, again.rc, again.output);
        assertEquals(token, Files.readString(secrets.resolve("agent.token")).strip(), "existing credentials are kept");

        // What the broker host ns-master gets: its JMX files, 0600 in a 0700 folder, and not the agent token.
        Path staged = dir.resolve("staged");
        Run stage = run(Map.of("CONF", conf, "SECRETS_DIR", secrets.toString(), "STAGE", staged.toString(), "ROOT", Dists.repoRoot().toString()),
            "bash", "-c", "set -euo pipefail; PROG=test; WORK=$(mktemp -d); . \"$ROOT/deploy/lib/common.sh\"; . \"$ROOT/deploy/lib/cluster.sh\"; "
                + ". \"$ROOT/deploy/lib/transport.sh\"; . \"$ROOT/deploy/lib/artifacts.sh\"; . \"$ROOT/deploy/lib/secrets.sh\"; "
                + "SET_OVERRIDES=(secrets_dir=$SECRETS_DIR broker_jmx=tls); cluster_load \"$CONF\"; secrets_ensure; "
                + "stage_host_secrets ns-master \"$STAGE\"; rm -rf \"$WORK\"");
        assertEquals(0, stage.rc, stage.output);
        assertEquals("rwx------", mode(staged));
        try (var files = Files.list(staged)) {
            List<String> names = files.map(p -> p.getFileName().toString()).sorted().toList();
            assertEquals(List.of("jmx-keystore.p12", "jmx-ssl.properties", "jmx.access", "jmx.password"), names);
        }
        for (String f : List.of("jmx-keystore.p12", "jmx-ssl.properties", "jmx.access", "jmx.password")) {
            assertEquals("rw-------", mode(staged.resolve(f)), f);
        }
        assertEquals("rmqpatch-monitor readonly", Files.readString(staged.resolve("jmx.access")).strip());
        assertEquals(credentials, Files.readString(staged.resolve("jmx.password")).strip());

        Files.setPosixFilePermissions(secrets.resolve("agent.token"), java.nio.file.attribute.PosixFilePermissions.fromString("rw-r--r--"));
        Run leaked = run(Map.of(), "scripts/deploy.sh", "credentials", "-c", conf, "--set", "secrets_dir=" + secrets);
        assertEquals(1, leaked.rc, leaked.output);
        assertTrue(leaked.output.contains("chmod 600") && leaked.output.contains("reset-credentials"), leaked.output);

        Run badMode = run(Map.of(), "scripts/deploy.sh", "show", "-c", conf, "--set", "broker_jmx=open");
        assertEquals(2, badMode.rc, badMode.output);
        assertTrue(badMode.output.contains("broker_jmx must be on, tls or off"), badMode.output);
    }

    private static String mode(Path p) throws Exception {
        return java.nio.file.attribute.PosixFilePermissions.toString(Files.getPosixFilePermissions(p));
    }

    @Test
    @Timeout(60)
    void osTuningPrintsEverySettingAndChangesNothingWithoutApply() throws Exception {
        Map<String, String> files = Map.of("RMQPATCH_SYSCTL_FILE", dir.resolve("sysctl.conf").toString(),
            "RMQPATCH_LIMITS_FILE", dir.resolve("limits.conf").toString(), "RMQPATCH_STATE_FILE", dir.resolve("before").toString());
        Run show = run(files, "scripts/os-tuning.sh");
        assertEquals(0, show.rc, show.output);
        for (String key : List.of("vm.max_map_count", "vm.overcommit_memory", "vm.swappiness", "ulimit nofile", "ulimit memlock")) {
            assertTrue(show.output.contains(key), key + " listed:\n" + show.output);
        }
        assertTrue(show.output.contains("Nothing was changed"), show.output);

        Run check = run(files, "scripts/os-tuning.sh", "--check");
        boolean differs = show.output.contains("set to ") || show.output.contains("limits.d:");
        assertEquals(differs ? 1 : 0, check.rc, "--check fails exactly when the table shows a change:\n" + check.output);

        assertEquals(2, run(files, "scripts/os-tuning.sh", "--aply").rc, "unknown flag");
        assertEquals(2, run(files, "scripts/os-tuning.sh", "--disk", "no-such-disk").rc, "unknown disk");
        assertEquals(0, run(files, "scripts/os-tuning.sh", "--help").rc);
        for (String f : List.of("sysctl.conf", "limits.conf", "before")) {
            assertTrue(Files.notExists(dir.resolve(f)), f + " not written without --apply");
        }
    }

    private record Run(int rc, String output) {
    }

    private Run run(Map<String, String> env, String script, String... args) throws Exception {
        List<String> command = new ArrayList<>(List.of(script.startsWith("scripts/") ? Dists.repoRoot().resolve(script).toString() : script));
        command.addAll(List.of(args));
        Path log = Files.createTempFile(dir, "script", ".log");
        ProcessBuilder pb = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile());
        pb.environment().putAll(env);
        Process p = pb.start();
        try {
            assertTrue(p.waitFor(400, TimeUnit.SECONDS), script + " finished");
        } finally {
            // netns-test.sh cleans up its namespaces on TERM; a test timeout must not leave them behind.
            p.destroy();
            p.waitFor(30, TimeUnit.SECONDS);
            p.destroyForcibly();
        }
        return new Run(p.exitValue(), Files.readString(log));
    }
}
