package dev.rmqpatch.bench.engine;

import dev.rmqpatch.cluster.Jdk8Home;
import java.nio.file.Path;

/**
 * The {@code @N} suffix of a broker {@link Variant} and of a {@link ClientVariant}: which JDK their processes run on.
 * {@code @8} is the JDK 8 that {@code scripts/jdk8.sh} provides (or {@code -Drmqpatch.jdk8.home}), {@code @N} with N the
 * harness's own feature version is the harness's JDK; no suffix is the JDK the processes would run on anyway.
 */
final class JdkSuffix {
    /** The JDK feature version the harness runs on: {@code @N} of it means "this JDK". */
    static final int HARNESS_JDK = Runtime.version().feature();

    private JdkSuffix() {
    }

    /** {@code digits} (a name's suffix without its {@code @}, or null) as a JDK this machine can run, or why not. */
    static Integer parse(String what, String digits) {
        if (digits == null) {
            return null;
        }
        int jdk = Integer.parseInt(digits);
        if (jdk != 8 && jdk != HARNESS_JDK) {
            throw new IllegalArgumentException(what + ": JDK " + jdk + " is not known here; @8 (scripts/jdk8.sh) and @" + HARNESS_JDK
                + " (the harness's own JDK) are");
        }
        return jdk;
    }

    /** The home of JDK {@code jdk} (as {@link #parse} returned it; null gives null); JDK 8 is looked up once per JVM. */
    static Path home(Integer jdk) throws Jdk8Home.Unavailable {
        if (jdk == null) {
            return null;
        }
        return jdk == HARNESS_JDK ? Path.of(System.getProperty("java.home")) : Jdk8Home.find();
    }
}
