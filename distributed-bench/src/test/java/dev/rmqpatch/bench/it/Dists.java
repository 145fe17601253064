package dev.rmqpatch.bench.it;

import static org.junit.jupiter.api.Assertions.fail;

import java.nio.file.Files;
import java.nio.file.Path;

/** Locates the distributions and jars that the real-process tests need, failing with what to build when missing. */
final class Dists {
    private Dists() {
    }

    static Path stock() {
        return dist("rmqpatch.dist.stock");
    }

    static Path patched() {
        return dist("rmqpatch.dist.patched");
    }

    /** broker-patches/target, where every distribution is (the harness's --dist-dir). */
    static Path distDir() {
        return Path.of(required("rmqpatch.dist.dir")).toAbsolutePath().normalize();
    }

    static Path repoRoot() {
        return Path.of(required("rmqpatch.repo.root")).toAbsolutePath().normalize();
    }

    static Path benchJar() {
        Path jar = Path.of(required("rmqpatch.bench.jar"));
        if (!Files.isRegularFile(jar)) {
            fail("no " + jar + "; integration tests run after package (mvn verify)");
        }
        return jar;
    }

    private static Path dist(String property) {
        Path dist = Path.of(required(property)).toAbsolutePath().normalize();
        if (!Files.isExecutable(dist.resolve("bin/mqbroker"))) {
            fail("no RocketMQ distribution at " + dist + ": build broker-patches first (scripts/build.sh, or mvn -B package "
                + "in the repository root, which packages broker-patches before distributed-bench)");
        }
        return dist;
    }

    private static String required(String property) {
        String value = System.getProperty(property);
        if (value == null) {
            fail("system property " + property + " is not set; run the integration tests through Maven (mvn verify)");
        }
        return value;
    }
}
