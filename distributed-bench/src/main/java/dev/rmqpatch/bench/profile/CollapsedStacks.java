package dev.rmqpatch.bench.profile;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.Reader;
import java.io.StringReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Profiler samples in the collapsed-stack format of FlameGraph and async-profiler: one line per distinct stack,
 * frames from root to leaf separated by ';', then a space and the number of samples. Profiles of several windows or
 * rounds add up line by line.
 */
public final class CollapsedStacks {
    private final Map<String, Long> counts = new LinkedHashMap<>();
    private long total;

    public static CollapsedStacks read(Path file) throws IOException {
        try (Reader in = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
            return parse(in);
        }
    }

    public static CollapsedStacks parse(String text) {
        try {
            return parse(new StringReader(text));
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    /** @throws IllegalArgumentException on a line that is not "stack count" */
    public static CollapsedStacks parse(Reader reader) throws IOException {
        CollapsedStacks s = new CollapsedStacks();
        BufferedReader in = new BufferedReader(reader);
        String line;
        int number = 0;
        while ((line = in.readLine()) != null) {
            number++;
            if (line.isBlank()) {
                continue;
            }
            // Frame names may contain spaces (native signatures); the count is after the last one.
            int space = line.lastIndexOf(' ');
            if (space <= 0) {
                throw new IllegalArgumentException("line " + number + " is not '<frames> <count>': " + line);
            }
            long n;
            try {
                n = Long.parseLong(line.substring(space + 1).trim());
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("line " + number + " does not end in a sample count: " + line, e);
            }
            s.add(line.substring(0, space), n);
        }
        return s;
    }

    public void add(String stack, long samples) {
        if (samples <= 0) {
            return;
        }
        counts.merge(stack, samples, Long::sum);
        total += samples;
    }

    public void addAll(CollapsedStacks other) {
        other.counts.forEach(this::add);
    }

    public long total() {
        return total;
    }

    public Map<String, Long> stacks() {
        return Collections.unmodifiableMap(counts);
    }

    /** Frames of a stack line, root first. */
    public static List<String> frames(String stack) {
        return Arrays.asList(stack.split(";"));
    }

    public void write(Path file) throws IOException {
        StringBuilder s = new StringBuilder();
        counts.forEach((stack, n) -> s.append(stack).append(' ').append(n).append('\n'));
        Files.createDirectories(file.toAbsolutePath().getParent());
        Files.writeString(file, s.toString(), StandardCharsets.UTF_8);
    }
}
