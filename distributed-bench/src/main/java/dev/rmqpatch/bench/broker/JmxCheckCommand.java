package dev.rmqpatch.bench.broker;

import dev.rmqpatch.bench.cli.Args;
import dev.rmqpatch.bench.cli.Flag;
import dev.rmqpatch.bench.cli.FlagSet;
import dev.rmqpatch.bench.cli.UsageException;
import java.io.IOException;
import java.io.PrintStream;
import java.lang.management.ManagementFactory;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import javax.management.MBeanServerConnection;
import javax.management.ObjectName;
import javax.management.remote.JMXConnector;
import javax.management.remote.JMXConnectorFactory;

/**
 * {@code jmx-check}: what a broker's JMX port lets a client do, from the outside. It logs in (or not), reads what the
 * coordinator reads (process CPU time, GC totals), then tries one operation, {@code java.lang:type=Memory gc()}, which
 * the read-only role must refuse. For operators checking a deployment, and for scripts/netns-test.sh.
 */
public final class JmxCheckCommand {
    /** Exit status: read allowed and the operation refused, as deploy sets it up. */
    public static final int READ_ONLY = 0;
    /** Could not log in or read (wrong or missing credentials, unreachable). */
    public static final int NO_READ = 1;
    /** Read allowed and the operation allowed too: the port is not read-only. */
    public static final int WRITABLE = 4;

    static final Flag<String> TARGET = Flag.text("--target", "HOST:PORT", "the JMX port (deploy: listenPort + jmx_port_offset)");
    static final Flag<Path> PASSWORD_FILE = Flag.path("--password-file", "FILE",
        "owner-only file 'USER PASSWORD' (deploy: <secrets_dir>/jmx.credentials); default: none");
    static final Flag<Path> TLS_CERT = Flag.path("--tls-cert", "FILE",
        "the brokers' JMX certificate, for broker_jmx = tls (deploy: <secrets_dir>/jmx-cert.pem)");
    static final FlagSet FLAGS = new FlagSet("Usage: bench jmx-check --target HOST:PORT [--password-file FILE] [--tls-cert FILE]",
        String.join("\n",
            "Connects to a broker JVM's remote JMX port, reads java.lang:type=OperatingSystem ProcessCpuTime and the GC",
            "MBeans (what the coordinator reads), then tries to invoke java.lang:type=Memory gc(), which a read-only",
            "login must be refused. Prints one line per step."))
        .section("Options:", TARGET, PASSWORD_FILE, TLS_CERT)
        .epilogue("-h, --help: this text. Exit status: 0 read allowed and gc() refused (read-only); 1 login or read refused or "
            + "failed; 4 gc() was allowed (the port is not read-only); 2 usage error.");

    private JmxCheckCommand() {
    }

    public static String helpText() {
        return FLAGS.help();
    }

    public static int run(String[] args, PrintStream out) throws UsageException, IOException {
        Args f = FLAGS.parse(args);
        String flag = f.get(TARGET);
        if (flag == null) {
            throw new UsageException("give --target HOST:PORT");
        }
        List<String> targets;
        try {
            targets = JmxBrokerProbe.parseTargets(flag);
        } catch (IllegalArgumentException e) {
            throw new UsageException("--target: " + e.getMessage());
        }
        if (targets.size() != 1) {
            throw new UsageException("--target takes one HOST:PORT");
        }
        String target = targets.get(0);
        JmxAccess access = JmxAccess.of(f.get(PASSWORD_FILE), f.get(TLS_CERT));
        String how = (access.hasCredentials() ? "with the password" : "without credentials") + (access.tls() ? ", over TLS" : "");
        JMXConnector connector;
        try {
            connector = JMXConnectorFactory.connect(JmxBrokerProbe.serviceUrl(target), access.environment());
        } catch (IOException | SecurityException e) {
            out.println("login " + target + " " + how + ": refused or failed (" + JmxBrokerProbe.describe(e) + ")");
            return NO_READ;
        }
        try (connector) {
            MBeanServerConnection c = connector.getMBeanServerConnection();
            try {
                JmxBrokerProbe.Reading r = JmxBrokerProbe.read(target, c);
                out.printf("read %s %s: ok (ProcessCpuTime %d ns, GC %d ms in %d collections)%n", target, how, r.cpuNanos(),
                    r.gcMillis(), r.gcCollections());
            } catch (IOException | SecurityException e) {
                out.println("read " + target + " " + how + ": refused or failed (" + JmxBrokerProbe.describe(e) + ")");
                return NO_READ;
            }
            try {
                c.invoke(new ObjectName(ManagementFactory.MEMORY_MXBEAN_NAME), "gc", null, null);
                out.println("invoke " + ManagementFactory.MEMORY_MXBEAN_NAME + " gc(): ALLOWED: this login is not read-only");
                return WRITABLE;
            } catch (SecurityException e) {
                out.println("invoke " + ManagementFactory.MEMORY_MXBEAN_NAME + " gc(): refused (" + JmxBrokerProbe.describe(e) + ")");
                return READ_ONLY;
            } catch (javax.management.JMException e) {
                throw new IOException("invoking gc() failed otherwise: " + e, e);
            }
        }
    }
}
