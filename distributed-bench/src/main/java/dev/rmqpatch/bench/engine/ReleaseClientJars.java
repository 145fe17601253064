package dev.rmqpatch.bench.engine;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The class path entries a release client ({@code --clients 4.9.8}, {@code 5.3.3}) puts before the harness's own: that
 * release's stock client with the libraries it runs on at that release's versions, taken from the lib/ folder of the
 * release's stock distribution ({@code rocketmq-V-stock}, which {@code scripts/build.sh --rocketmq-version V --stock-only}
 * builds). Every jar of that folder goes first except two kinds:
 * <ul>
 *   <li>the release's own server-side modules ({@code rocketmq-broker-V.jar}, -store, -namesrv, -tools ...): of the
 *   release's {@code rocketmq-*-V} jars only the client's ({@link ClientVariant#CLIENT_ARTIFACTS}) are taken;</li>
 *   <li>{@link #HARNESS_LIBRARIES}, which the harness's own code in the agent JVM runs on (its coordinator protocol and
 *   workload files) and no RocketMQ client calls: they stay the harness's, the same in every client's JVM.</li>
 * </ul>
 * So every class the release's client loads that the harness's class path also holds (rocketmq-client, -common,
 * -remoting, netty (4.1.x, as netty-all or as its module jars, ahead of the harness's netty-all 4.0), fastjson,
 * commons-lang3, commons-codec) comes from the release, and what only the release needs (5.x: fastjson2, guava,
 * opentelemetry, its shaded slf4j and logback) is there. The broker's own third-party libraries in that folder come along
 * (no client loads them, and none holds a class of the harness's class path but {@link #HARNESS_LIBRARIES}): the folder
 * is the release's own resolution of its versions, which a separately resolved client would not match.
 */
public final class ReleaseClientJars {
    /**
     * Libraries of the harness's own code that a release's lib/ may hold at another version (5.3.3: gson 2.9.0, snakeyaml
     * 2.0): the agent JVM keeps the harness's, as every other client's does.
     */
    public static final List<String> HARNESS_LIBRARIES = List.of("gson", "snakeyaml", "HdrHistogram");
    /** A jar's artifact: its file name up to the first "-" followed by a digit (the version). */
    private static final Pattern ARTIFACT = Pattern.compile("(.+?)-[0-9].*\\.jar");

    private ReleaseClientJars() {
    }

    /**
     * The jars of release {@code version}'s stock distribution under {@code distDir} that its client's agent JVMs put first,
     * in file-name order; a failure naming how to build the distribution when it (or its client jars) is missing.
     */
    public static List<Path> of(Path distDir, String version) throws ClientVariant.MissingPartException {
        Variant stock = Variant.parse(version);
        Path lib = stock.dist(distDir).resolve("lib");
        String build = "build it with: " + stock.buildHint() + " (or give --dist-dir the folder that holds " + stock.distName() + ")";
        if (!Files.isDirectory(lib)) {
            throw new ClientVariant.MissingPartException("client " + version + " needs the stock RocketMQ " + version + " distribution's "
                + "jars in " + lib.toAbsolutePath().normalize() + ", which is missing; " + build);
        }
        List<Path> all = new ArrayList<>();
        try (DirectoryStream<Path> dir = Files.newDirectoryStream(lib, "*.jar")) {
            dir.forEach(all::add);
        } catch (IOException e) {
            throw new ClientVariant.MissingPartException("cannot list " + lib + ": " + e.getMessage());
        }
        all.sort(null);
        Path client = lib.resolve("rocketmq-client-" + version + ".jar");
        if (!all.contains(client)) {
            throw new ClientVariant.MissingPartException("client " + version + " needs " + client.toAbsolutePath().normalize()
                + ", which is missing; " + build);
        }
        return select(all, version);
    }

    /**
     * Of {@code jars} (a release's lib/), those its client's agent JVMs put first: all but the release's server-side modules
     * and the {@link #HARNESS_LIBRARIES}. (rocketmq-logging is a client module up to 4.9.x; 5.x has none.)
     */
    static List<Path> select(List<Path> jars, String version) {
        List<Path> first = new ArrayList<>();
        for (Path jar : jars) {
            String file = jar.getFileName().toString();
            Matcher m = ARTIFACT.matcher(file);
            String artifact = m.matches() ? m.group(1) : file;
            boolean releaseModule = artifact.startsWith("rocketmq-") && file.equals(artifact + "-" + version + ".jar");
            if (releaseModule ? ClientVariant.CLIENT_ARTIFACTS.contains(artifact) : !HARNESS_LIBRARIES.contains(artifact)) {
                first.add(jar);
            }
        }
        return first;
    }
}
