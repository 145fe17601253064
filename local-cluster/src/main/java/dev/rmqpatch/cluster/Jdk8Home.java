package dev.rmqpatch.cluster;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Where this machine's JDK 8 is, for the tests and benchmarks that run servers on it: {@code -Drmqpatch.jdk8.home}
 * when given, else what the project's {@code scripts/jdk8.sh} prints (it fetches and unpacks the JDK on first use,
 * then answers from its cache). Looked up once per JVM; a failure is kept with its reason.
 */
public final class Jdk8Home {

    /** Points at a JDK 8 of one's own instead of the script's. */
    public static final String PROPERTY = "rmqpatch.jdk8.home";

    private static Path home;
    private static String failure;

    private Jdk8Home() {
    }

    /** Thrown when no JDK 8 can be had; the message says why. */
    public static final class Unavailable extends Exception {
        public Unavailable(String message) {
            super(message);
        }
    }

    /** The JDK 8's home (its {@code bin/java} runs and says 1.8). */
    public static synchronized Path find() throws Unavailable {
        if (home == null && failure == null) {
            try {
                home = locate();
            } catch (Unavailable e) {
                failure = e.getMessage();
            }
        }
        if (home == null) {
            throw new Unavailable(failure);
        }
        return home;
    }

    /** Whether this runs in CI ({@code CI=true}), where a JDK 8 is required. */
    private static boolean inCi() {
        return "true".equalsIgnoreCase(System.getenv("CI"));
    }

    /**
     * The one rule for tests that want a JDK 8: its home; else, outside CI, null (the caller skips or falls back, and
     * says so); in CI, an IllegalStateException with the reason, since CI must run the JDK 8 tests.
     */
    public static Path forTests() {
        try {
            return find();
        } catch (Unavailable e) {
            if (inCi()) {
                throw new IllegalStateException("JDK 8 is required in CI and could not be had: " + e.getMessage(), e);
            }
            return null;
        }
    }

    /** Why {@link #find} failed, or null when it has not (yet). */
    public static synchronized String failure() {
        return failure;
    }

    private static Path locate() throws Unavailable {
        String given = System.getProperty(PROPERTY);
        Path candidate;
        if (given != null && !given.isEmpty()) {
            candidate = Paths.get(given);
        } else {
            Path script = script();
            candidate = Paths.get(run(List.of(script.toString()), 10, "scripts/jdk8.sh").trim());
        }
        String version = run(List.of(candidate.resolve("bin/java").toString(), "-version"), 1, candidate + "/bin/java -version");
        if (!version.contains("\"1.8.")) {
            throw new Unavailable(candidate + " is not a JDK 8: " + version.trim());
        }
        return candidate;
    }

    /** scripts/jdk8.sh of the checkout this JVM runs in: the first parent of the working directory that has it. */
    static Path script() throws Unavailable {
        for (Path dir = Paths.get("").toAbsolutePath(); dir != null; dir = dir.getParent()) {
            Path script = dir.resolve("scripts/jdk8.sh");
            if (Files.isExecutable(script)) {
                return script;
            }
        }
        throw new Unavailable("no scripts/jdk8.sh above " + Paths.get("").toAbsolutePath() + " (set -D" + PROPERTY + ")");
    }

    /** Runs a fixed command; its stdout, or Unavailable with its output when it fails. */
    private static String run(List<String> command, int minutes, String what) throws Unavailable {
        try {
            Path err = Files.createTempFile("rmqpatch-jdk8-", ".err");
            try {
                Process p = new ProcessBuilder(command).redirectError(err.toFile()).start();
                String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
                if (!p.waitFor(minutes, TimeUnit.MINUTES)) {
                    p.destroyForcibly();
                    throw new Unavailable(what + " did not finish in " + minutes + " min");
                }
                if (p.exitValue() != 0) {
                    throw new Unavailable(what + " failed (exit " + p.exitValue() + "): " + ManagedProcess.tail(err, 5));
                }
                // java -version writes to stderr.
                return out.isEmpty() ? new String(Files.readAllBytes(err), StandardCharsets.UTF_8) : out;
            } finally {
                Files.deleteIfExists(err);
            }
        } catch (IOException e) {
            throw new Unavailable(what + ": " + e.getMessage());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new Unavailable(what + ": interrupted");
        }
    }
}
