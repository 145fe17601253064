package dev.rmqpatch.bench.coordinator;

import java.nio.file.Path;
import java.util.List;

/**
 * The JDK a helper JVM (agent, sink) runs on: the harness's own, or a JDK 8 for a client comparison's agents
 * ({@code --clients stock@8,patched@8}). JDK 8 has no module system: it gets no {@code --add-opens}, which it would
 * refuse, and needs none (the RocketMQ client's netty reaches NIO internals freely there).
 */
public final class HelperJdk {
    private static final HelperJdk HARNESS = new HelperJdk(Path.of(System.getProperty("java.home")), false);

    private final Path home;
    private final boolean jdk8;

    private HelperJdk(Path home, boolean jdk8) {
        this.home = home;
        this.jdk8 = jdk8;
    }

    /** The JDK the harness runs on. */
    public static HelperJdk harness() {
        return HARNESS;
    }

    /** The JDK at {@code home}: the harness's own when it is that one, else a JDK 8. */
    public static HelperJdk at(Path home) {
        return home == null || home.equals(HARNESS.home) ? HARNESS : new HelperJdk(home, true);
    }

    String java() {
        return home.resolve("bin").resolve("java").toString();
    }

    /** The options that open NIO internals to the RocketMQ client's netty: JDK 9+ closes them, JDK 8 has no such option. */
    List<String> moduleOptions() {
        return jdk8 ? List.of() : LocalJvm.NIO_OPENS;
    }
}
