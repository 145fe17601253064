package dev.rmqpatch.patches.build;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Files;
import java.nio.file.Path;

/**
 * What the per-release differential tests share: a release's jars from the local Maven repository (a test without
 * them is skipped, saying which), and a class loader's {@code PatchSwitches} initialised under a given
 * {@code -Drmqpatch.disable}, the JVM's own setting restored afterwards.
 */
final class ReleaseArtifacts {

    static final String SWITCHES = "dev.rmqpatch.codec.switches.PatchSwitches";

    private ReleaseArtifacts() {
    }

    /** The local repository the build uses (-Dmaven.repo.local, else ~/.m2/repository). */
    static Path repo() {
        return Path.of(System.getProperty("maven.repo.local", System.getProperty("user.home") + "/.m2/repository"));
    }

    /** group:name:version's jar there; skips the test when it is missing. */
    static Path artifact(String group, String name, String version) {
        Path jar = repo().resolve(group.replace('.', '/') + "/" + name + "/" + version + "/" + name + "-" + version + ".jar");
        assumeTrue(Files.isRegularFile(jar), "no " + jar);
        return jar;
    }

    /** Initialises the loader's PatchSwitches with -Drmqpatch.disable={@code disable} (null: unset); returns the class. */
    static Class<?> initSwitches(ClassLoader loader, String disable) throws Exception {
        String before = System.getProperty("rmqpatch.disable");
        if (disable == null) {
            System.clearProperty("rmqpatch.disable");
        } else {
            System.setProperty("rmqpatch.disable", disable);
        }
        try {
            return Class.forName(SWITCHES, true, loader);
        } finally {
            if (before == null) {
                System.clearProperty("rmqpatch.disable");
            } else {
                System.setProperty("rmqpatch.disable", before);
            }
        }
    }
}
