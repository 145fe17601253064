package dev.rmqpatch.bench.workload;

import dev.rmqpatch.bench.lang.Jdk8;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;

/**
 * How message bodies are made, from OpenMessaging Benchmark's fields: {@code payloadFile} (one body read from a file of
 * exactly messageSize bytes), {@code useRandomizedPayloads} with {@code randomBytesRatio} and
 * {@code randomizedPayloadPoolSize} (a pool of bodies, each that share of random bytes followed by zeros, one picked
 * per message), or neither: one random body per agent (this harness's default, which OMB has no equivalent of).
 * As in OMB, randomized payloads take precedence over a payload file.
 */
public final class Payload {
    /** The harness default: one seeded random body of messageSize bytes, made by each agent. */
    public static final Payload RANDOM_BODY = new Payload(null, null, false, 0, 0);

    private final String file;
    /** The workload file's folder, the first place {@link #file} is looked for; null for workloads not read from a file. */
    private final Path workloadDir;
    private final boolean randomized;
    private final double randomBytesRatio;
    private final int poolSize;

    private Payload(String file, Path workloadDir, boolean randomized, double randomBytesRatio, int poolSize) {
        this.file = file;
        this.workloadDir = workloadDir;
        this.randomized = randomized;
        this.randomBytesRatio = randomBytesRatio;
        this.poolSize = poolSize;
    }

    public static Payload file(String file, Path workloadDir) {
        if (file == null || Jdk8.isBlank(file)) {
            throw new IllegalArgumentException("payloadFile must not be empty");
        }
        return new Payload(file, workloadDir, false, 0, 0);
    }

    public static Payload randomized(double randomBytesRatio, int poolSize) {
        if (!(randomBytesRatio >= 0 && randomBytesRatio <= 1)) {
            throw new IllegalArgumentException("randomBytesRatio must be between 0.0 and 1.0, not " + randomBytesRatio);
        }
        if (poolSize < 1) {
            throw new IllegalArgumentException("randomizedPayloadPoolSize must be at least 1 with useRandomizedPayloads: true, not "
                + poolSize + " (OMB would start with an empty pool)");
        }
        return new Payload(null, null, true, randomBytesRatio, poolSize);
    }

    public boolean isFile() { return file != null; }
    public boolean isRandomized() { return randomized; }
    public String fileName() { return file; }
    public double randomBytesRatio() { return randomBytesRatio; }
    public int poolSize() { return poolSize; }

    /** How many different bodies the agents cycle through (the stamp of runs with consumers aside). */
    public int distinctBodies() {
        return randomized ? poolSize : 1;
    }

    /**
     * The payload file's bytes: the file {@link #resolve} finds, checked to be messageSize bytes, as OMB checks.
     */
    public byte[] readFile(int messageSize, Path payloadDir) throws IOException {
        Path p = resolve(payloadDir);
        byte[] bytes = Files.readAllBytes(p);
        if (bytes.length != messageSize) {
            throw new IllegalArgumentException("payloadFile " + p + " has " + bytes.length + " bytes, but messageSize is "
                + messageSize + " (OMB refuses such a file too)");
        }
        return bytes;
    }

    /**
     * Where the payload file is: {@code payloadFile} as given when absolute, else against the workload file's folder,
     * then against {@code payloadDir} (the command line's --payload-dir). A file found nowhere is an error naming every
     * path tried. The one lookup that bench run, compare and scripts/run-distributed.sh (through bench workload) share.
     */
    public Path resolve(Path payloadDir) {
        if (file == null) {
            throw new IllegalStateException("this workload has no payloadFile (" + this + ")");
        }
        List<Path> tried = new ArrayList<>();
        Path given = Paths.get(file);
        if (given.isAbsolute()) {
            tried.add(given);
        } else {
            if (workloadDir != null) {
                tried.add(workloadDir.resolve(given));
            }
            if (payloadDir != null) {
                tried.add(payloadDir.resolve(given));
            }
            if (tried.isEmpty()) {
                tried.add(given.toAbsolutePath());
            }
        }
        for (Path p : tried) {
            if (Files.isRegularFile(p)) {
                return p.toAbsolutePath().normalize();
            }
        }
        StringBuilder paths = new StringBuilder();
        for (Path p : tried) {
            paths.append(paths.length() == 0 ? "" : ", ").append(p.toAbsolutePath().normalize());
        }
        throw new IllegalArgumentException("payloadFile '" + file + "' not found; tried " + paths
            + (payloadDir == null ? " (give --payload-dir DIR to look in another folder)" : ""));
    }

    @Override
    public String toString() {
        if (randomized) {
            return "randomized payloads (" + poolSize + ", " + Math.round(randomBytesRatio * 100) + "% random bytes)";
        }
        return file != null ? "payload file " + file : "random body";
    }
}
