package dev.rmqpatch.patches.build;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Files;
import java.nio.file.Path;

/**
 * A release's jars from the local Maven repository, as the per-release differential tests take them (a test without
 * them is skipped, saying which). Their loaders' switches: {@link dev.rmqpatch.patches.LibLoaders#switches}.
 */
final class ReleaseArtifacts {

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
}
