package dev.rmqpatch.patches;

import java.io.IOException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/**
 * Class loaders over a distribution's lib/, for tests that run stock and patched classes side by side in one JVM, and
 * a way to set which patches are switched off in one of them.
 */
public final class LibLoaders {
    public static final String SWITCHES = "dev.rmqpatch.codec.switches.PatchSwitches";

    private LibLoaders() {
    }

    /**
     * The jars of {@code lib} (sorted), then {@code extra}, in a loader whose parent is the platform loader: nothing of
     * the test class path (codec, stock jars) can leak in.
     */
    static URLClassLoader of(Path lib, URL... extra) throws IOException {
        List<URL> urls = new ArrayList<>();
        try (Stream<Path> jars = Files.list(lib)) {
            for (Path p : (Iterable<Path>) jars.sorted()::iterator) {
                urls.add(p.toUri().toURL());
            }
        }
        urls.addAll(List.of(extra));
        return new URLClassLoader(urls.toArray(new URL[0]), ClassLoader.getPlatformClassLoader());
    }

    /**
     * Initialises the loader's {@code PatchSwitches} while {@code -Drmqpatch.disable} is {@code disable} (null or empty:
     * unset), so those patches run stock code in that loader for good; restores the property and returns the class.
     */
    public static Class<?> switches(ClassLoader loader, String disable) throws ClassNotFoundException {
        String before = System.getProperty("rmqpatch.disable");
        if (disable == null || disable.isEmpty()) {
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
