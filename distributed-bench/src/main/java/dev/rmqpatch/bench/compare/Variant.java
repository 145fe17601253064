package dev.rmqpatch.bench.compare;

import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A broker to compare, named as in the article: {@code 4.9.0} (stock jars, stock parameters), {@code 4.9.0-tuned}
 * (stock jars, the send-path parameters 4.9.1 made default), {@code 4.9.0-patched} (patched jars, tuned parameters),
 * and {@code 4.9.1} (stock 4.9.1, its defaults). Any {@code <version>[-tuned|-patched]} works the same way.
 * {@code 4.9.0-patched-without-P7} (or {@code -without-P7+P8}) is the patched broker started with those patches
 * switched off ({@code -Drmqpatch.disable}): what one patch buys is all patches against all but that one.
 */
public final class Variant {
    private static final Pattern NAME =
        Pattern.compile("(\\d+\\.\\d+\\.\\d+)(-tuned|-patched(?:-without-([A-Z][0-9]+(?:\\+[A-Z][0-9]+)*))?)?");

    private final String name;
    private final String version;
    private final boolean patched;
    private final boolean tuned;
    private final List<String> disabled;

    private Variant(String name, String version, boolean tuned, boolean patched, List<String> disabled) {
        this.name = name;
        this.version = version;
        this.tuned = tuned;
        this.patched = patched;
        this.disabled = disabled;
    }

    public static Variant parse(String name) {
        Matcher m = NAME.matcher(name.trim());
        if (!m.matches()) {
            throw new IllegalArgumentException("variant '" + name + "' is not <version>, <version>-tuned, <version>-patched"
                + " or <version>-patched-without-ID[+ID...] (e.g. 4.9.0-tuned, 4.9.0-patched-without-P7)");
        }
        String suffix = m.group(2);
        boolean patched = suffix != null && suffix.startsWith("-patched");
        List<String> disabled = m.group(3) == null ? List.of() : List.of(m.group(3).split("\\+"));
        return new Variant(name.trim(), m.group(1), patched || "-tuned".equals(suffix), patched, disabled);
    }

    /** Patch ids this variant switches off at broker start (empty for all others). */
    public List<String> disabledPatches() {
        return disabled;
    }

    /** JVM options of this variant's brokers and name server: the switch for its disabled patches, if any. */
    public List<String> jvmOptions() {
        return disabled.isEmpty() ? List.of() : List.of("-Drmqpatch.disable=" + String.join(",", disabled));
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
