package dev.rmqpatch.bench.engine;

import dev.rmqpatch.bench.workload.ClientMode;
import dev.rmqpatch.cluster.Jdk8Home;
import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.rocketmq.common.MQVersion;

/**
 * A RocketMQ client to compare ({@code compare --efficiency --clients}), named as the broker {@link Variant}s are:
 * {@code stock} (the harness's own rocketmq-client classpath), {@code patched} (the patched distribution's RocketMQ jars
 * and the rmqpatch codec jar first on the agent JVM's class path), {@code agent} (the stock class path and
 * {@code -javaagent:java-agent/target/rmqpatch-agent.jar}), {@code wire} (no RocketMQ client code: the harness's own
 * wire client, {@code --client wire}'s frames encoded once and written and answered on one netty event loop, a
 * reference beside the RocketMQ clients), or a release's version, {@code 4.9.8} or {@code 5.3.3} (that release's stock
 * client: {@link ReleaseClientJars} puts its jars, from the lib/ of its stock distribution, first on the agent JVM's class
 * path). {@code patched-without-P7} (or {@code -without-P7+P8}, and
 * the same after {@code agent}) runs those patches switched off ({@code -Drmqpatch.disable} on the agent JVM); a suffix
 * {@code @8} runs the client's agent JVMs on JDK 8 ({@code stock@8,patched@8}: the JDK most 4.9.0 applications run), as
 * a broker {@link Variant}'s {@code @8} does its servers; a final {@code #N} names another copy of the same client (own
 * agent JVMs): {@code stock,stock#2} is an A/A comparison.
 *
 * <p>Everything else of the agent JVMs (heap, GC, {@code -XX:ActiveProcessorCount}, the harness's own classes) is the
 * same for every client: {@link #jvmOptions}, {@link #classPathFirst} and {@link #javaHome} are the only differences.
 */
public final class ClientVariant {
    /** What runs in the agent JVM. */
    public enum Kind {
        STOCK, PATCHED, AGENT, WIRE, RELEASE;

        public String label() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    /** Which client is measured: the producers (sync sends at the fixed rate), or push consumers fed by stock producers. */
    public enum Side {
        PRODUCER, CONSUMER;

        public String label() {
            return name().toLowerCase(Locale.ROOT);
        }

        public static Side parse(String s) {
            for (Side side : values()) {
                if (side.label().equals(s)) {
                    return side;
                }
            }
            throw new IllegalArgumentException("--client-side must be producer or consumer, not '" + s + "'");
        }
    }

    private static final Pattern NAME =
        Pattern.compile("(stock|patched|agent|wire|[0-9]+\\.[0-9]+\\.[0-9]+)(?:-without-([A-Z][0-9]+(?:\\+[A-Z][0-9]+)*))?(?:@([0-9]+))?(?:#[0-9]+)?");
    /** The Java agent jar, relative to the repository root (java-agent's build output). */
    public static final String AGENT_JAR = "java-agent/target/rmqpatch-agent.jar";
    /** What builds the Java agent jar when it is missing (from the repository root). */
    public static final String AGENT_BUILD = "mvn -B -q -pl java-agent -am -DskipTests install";
    /** The client-side RocketMQ jars of the patched distribution put first, by artifact; the codec jar goes with them. */
    static final List<String> CLIENT_ARTIFACTS = List.of("rocketmq-client", "rocketmq-common", "rocketmq-remoting", "rocketmq-logging");
    static final String CODEC_PREFIX = "rmqpatch-codec-";

    private final String name;
    private final Kind kind;
    private final String release;
    private final List<String> disabled;
    private final Integer jdk;

    private ClientVariant(String name, Kind kind, String release, List<String> disabled, Integer jdk) {
        this.name = name;
        this.kind = kind;
        this.release = release;
        this.disabled = disabled;
        this.jdk = jdk;
    }

    public static ClientVariant parse(String name) {
        Matcher m = NAME.matcher(name.trim());
        if (!m.matches()) {
            throw new IllegalArgumentException("client '" + name.trim() + "' is not stock, patched, agent, wire, a release (e.g. 4.9.8, "
                + "5.3.3), patched-without-ID[+ID...] or agent-without-ID[+ID...], each optionally followed by @<JDK> and by #<N> for "
                + "another copy of the same (e.g. patched-without-P7, patched@8, 5.3.3@8, stock#2)");
        }
        boolean isRelease = Character.isDigit(m.group(1).charAt(0));
        Kind kind = isRelease ? Kind.RELEASE : Kind.valueOf(m.group(1).toUpperCase(Locale.ROOT));
        String release = isRelease ? m.group(1) : null;
        if (isRelease && release.equals(stockVersion())) {
            throw new IllegalArgumentException("client '" + name.trim() + "': " + release + " is the harness's own client; say stock");
        }
        List<String> disabled = m.group(2) == null ? List.of() : List.of(m.group(2).split("\\+"));
        if ((kind == Kind.STOCK || kind == Kind.WIRE || kind == Kind.RELEASE) && !disabled.isEmpty()) {
            throw new IllegalArgumentException("client '" + name.trim() + "': the " + (isRelease ? release : kind.label()) + " client has no "
                + "patches to switch off; patched-without-ID or agent-without-ID do");
        }
        Integer jdk = JdkSuffix.parse("client '" + name.trim() + "'", m.group(3));
        return new ClientVariant(name.trim(), kind, release, disabled, jdk);
    }

    /** A comma-separated list (--clients): at least two, none twice. */
    public static List<ClientVariant> parseList(String list) {
        Set<String> names = new LinkedHashSet<>();
        List<ClientVariant> clients = new ArrayList<>();
        for (String n : list.split(",")) {
            if (n.isBlank()) {
                continue;
            }
            if (!names.add(n.trim())) {
                throw new IllegalArgumentException("client " + n.trim() + " given twice in --clients");
            }
            clients.add(parse(n));
        }
        if (clients.size() < 2) {
            throw new IllegalArgumentException("--clients compares clients with a baseline: give at least two (e.g. stock,patched), not "
                + names);
        }
        return clients;
    }

    public String name() {
        return name;
    }

    public Kind kind() {
        return kind;
    }

    /** The release whose stock client this is ({@link Kind#RELEASE}: {@code 4.9.8}, {@code 5.3.3}), else null. */
    public String release() {
        return release;
    }

    /** The RocketMQ version of the harness's own (stock) client, e.g. 4.9.0: the patched jars must be of the same. */
    public static String stockVersion() {
        return MQVersion.getVersionDesc(MQVersion.CURRENT_VERSION).substring(1).replace('_', '.');
    }

    /** The JDK feature version this client's agent JVMs run on ({@code @N}), or null: the harness's own. */
    public Integer jdk() {
        return jdk;
    }

    /** The home of the JDK this client's agent JVMs run on, or null: the harness's own; JDK 8 is fetched on first use. */
    public Path javaHome() throws MissingPartException {
        try {
            return JdkSuffix.home(jdk);
        } catch (Jdk8Home.Unavailable e) {
            throw new MissingPartException("client " + name + " asks for JDK 8, and none can be had: " + e.getMessage());
        }
    }

    /** Patch ids this client runs switched off (empty for all others). */
    public List<String> disabledPatches() {
        return disabled;
    }

    /**
     * JVM options only this client's agent JVMs get, after the ones every client gets: the Java agent (agent) and the
     * switch of its disabled patches.
     */
    public List<String> jvmOptions(Path agentJar) {
        List<String> o = new ArrayList<>();
        if (kind == Kind.AGENT) {
            o.add("-javaagent:" + agentJar);
        }
        if (!disabled.isEmpty()) {
            o.add("-Drmqpatch.disable=" + String.join(",", disabled));
        }
        return o;
    }

    /** The harness's client mode its agents send with: the wire client for wire, a RocketMQ client for every other. */
    public ClientMode mode() {
        return kind == Kind.WIRE ? ClientMode.WIRE : ClientMode.ROCKETMQ;
    }

    /**
     * Class path entries put before the harness's own (which holds the stock client): the patched jars (patched), the
     * release's client jars (a release, {@link ReleaseClientJars}), or none.
     */
    public List<Path> classPathFirst(List<Path> patchedJars, Path distDir) throws MissingPartException {
        if (kind == Kind.RELEASE) {
            return ReleaseClientJars.of(distDir, release);
        }
        return kind == Kind.PATCHED ? patchedJars : List.of();
    }

    /** The Java agent jar of the repository at {@code repoRoot}, or a failure saying how to build it. */
    public static Path agentJar(Path repoRoot) throws MissingPartException {
        Path jar = repoRoot.resolve(AGENT_JAR).toAbsolutePath().normalize();
        if (!Files.isRegularFile(jar)) {
            throw new MissingPartException("client agent needs the Java agent jar " + jar + ", which is missing; build it with: " + AGENT_BUILD
                + " (in " + repoRoot + "), or let scripts/compare.sh build it");
        }
        return jar;
    }

    /**
     * The patched client jars: from the patched distribution of RocketMQ {@code version} under {@code distDir}, its
     * rocketmq-client, -common, -remoting and -logging jars and the rmqpatch codec jar, or a failure saying how to build
     * them.
     */
    public static List<Path> patchedJars(Path distDir, String version) throws MissingPartException {
        Variant patched = Variant.parse(version + "-patched");
        Path lib = patched.dist(distDir).resolve("lib");
        String build = "build the patched distribution with: " + patched.buildHint() + " (or: mvn -B -q -pl codec,broker-patches -am "
            + "-DskipTests install), or let scripts/compare.sh build it";
        if (!Files.isDirectory(lib)) {
            throw new MissingPartException("client patched needs the patched RocketMQ jars in " + lib + ", which is missing; " + build);
        }
        List<Path> jars = new ArrayList<>();
        for (String artifact : CLIENT_ARTIFACTS) {
            Path jar = lib.resolve(artifact + "-" + version + ".jar");
            if (!Files.isRegularFile(jar)) {
                throw new MissingPartException("client patched needs " + jar + ", which is missing; " + build);
            }
            jars.add(jar);
        }
        List<Path> codec = new ArrayList<>();
        try (DirectoryStream<Path> dir = Files.newDirectoryStream(lib, CODEC_PREFIX + "*.jar")) {
            dir.forEach(codec::add);
        } catch (IOException e) {
            throw new MissingPartException("cannot list " + lib + ": " + e.getMessage());
        }
        if (codec.size() != 1) {
            throw new MissingPartException("client patched needs exactly one " + CODEC_PREFIX + "*.jar in " + lib + ", found " + codec + "; "
                + build);
        }
        jars.add(codec.get(0));
        return jars;
    }

    @Override
    public String toString() {
        return name;
    }

    /** A part a client needs (its jars, its JDK) is not there; the message says how to build or get it. */
    public static final class MissingPartException extends Exception {
        public MissingPartException(String message) {
            super(message);
        }
    }
}
