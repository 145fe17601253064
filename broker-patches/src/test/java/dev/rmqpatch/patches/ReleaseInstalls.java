package dev.rmqpatch.patches;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * The installs an exploit IT attacks, per release: stock (the control: the exploit must work there) and patched. For
 * 4.9.0 the two distributions of the build; for a later release its stock distribution ({@code rocketmq-4.9.x-stock},
 * the build's) and a copy of it with lib/ patched by patch-lib, made in the test's temp folder as an operator makes it
 * ({@link PatchLibDist}). 4.9.8's stock distribution exists only where its broker was built from the source release
 * ({@code -Drmqpatch.stock498.skip=false}, as in CI); without it its cases are skipped, saying so.
 */
final class ReleaseInstalls {

    private ReleaseInstalls() {
    }

    /** The releases the exploit ITs run on: 4.9.0 and the later ones issue 45 names. */
    static List<String> releases() {
        return List.of("4.9.0", "4.9.4", "4.9.7", "4.9.8");
    }

    /** The release's stock install; skips the test where it was not built. */
    static Path stock(String release) {
        Path dist = TestCluster.dist(release.equals("4.9.0") ? "stock" : "stock" + release.replace(".", ""));
        assumeTrue(Files.isDirectory(dist.resolve("lib")), "no " + dist + " (4.9.8: built with -Drmqpatch.stock498.skip=false)");
        return dist;
    }

    /** The release's patched install: 4.9.0's patched distribution, else patch-lib's copy of the stock one in {@code tmp}. */
    static Path patched(String release, Path tmp) throws Exception {
        if (release.equals("4.9.0")) {
            return TestCluster.dist("patched");
        }
        Path into = tmp.resolve("rocketmq-" + release + "-patch-lib");
        PatchLibDist.make(stock(release), into);
        return into;
    }
}
