package dev.rmqpatch.bench.compare;

import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A broker to compare, named as in the article: {@code 4.9.0} (stock jars, stock parameters), {@code 4.9.0-tuned}
 * (stock jars, the send-path parameters 4.9.1 made default), {@code 4.9.0-patched} (patched jars, tuned parameters),
 * and {@code 4.9.1} (stock 4.9.1, its defaults). Any {@code <version>[-tuned|-patched]} works the same way.
 */
public final class Variant {
    private static final Pattern NAME = Pattern.compile("(\\d+\\.\\d+\\.\\d+)(-tuned|-patched)?");

    private final String name;
    private final String version;
    private final boolean patched;
    private final boolean tuned;

    private Variant(String name, String version, boolean tuned, boolean patched) {
        this.name = name;
        this.version = version;
        this.tuned = tuned;
        this.patched = patched;
    }

    public static Variant parse(String name) {
        Matcher m = NAME.matcher(name.trim());
        if (!m.matches()) {
            throw new IllegalArgumentException("variant '" + name + "' is not <version>, <version>-tuned or <version>-patched (e.g. 4.9.0-tuned)");
        }
        String suffix = m.group(2);
        boolean patched = "-patched".equals(suffix);
        return new Variant(name.trim(), m.group(1), patched || "-tuned".equals(suffix), patched);
    }

    public String name() {
        return name;
    }

    public String version() {
        return version;
    }

    public boolean patched() {
        return patched;
    }

    /** Folder name of the distribution under broker-patches/target. */
    public String distName() {
        return "rocketmq-" + version + (patched ? "-patched" : "-stock");
    }

    public Path dist(Path distDir) {
        return distDir.resolve(distName());
    }

    /** Patched variants run with tuned parameters: the article's baseline is the tuned 4.9.0. */
    public String confName() {
        return tuned ? "broker-tuned.conf" : "broker.conf";
    }

    /**
     * Settings appended to the conf. broker-tuned.conf says sendMessageThreadPoolNums=4; 4.9.1 uses min(cores, 4),
     * and on a 2-core machine 4 spinning send threads would be a different configuration from what 4.9.1 runs.
     */
    public Map<String, String> overrides(int cpus) {
        Map<String, String> o = new LinkedHashMap<>();
        if (tuned) {
            o.put("sendMessageThreadPoolNums", Integer.toString(Math.min(cpus, 4)));
        }
        return o;
    }

    /** How to build the distribution when it is missing (scripts/build.sh arguments). */
    public String buildHint() {
        return "scripts/build.sh --rocketmq-version " + version + (patched ? "" : " --stock-only");
    }

    @Override
    public String toString() {
        return name;
    }
}
