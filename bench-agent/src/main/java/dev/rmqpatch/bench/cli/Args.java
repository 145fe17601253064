package dev.rmqpatch.bench.cli;

import dev.rmqpatch.bench.lang.Jdk8;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** A parsed command line: the values given for each declared {@link Flag}, and the defaults of the rest. */
public final class Args {
    private final Map<String, List<Object>> given;
    private final List<String> raw;

    Args(Map<String, List<Object>> given, List<String> raw) {
        this.given = given;
        this.raw = raw;
    }

    /** Whether the flag was on the command line. */
    public boolean has(Flag<?> flag) {
        return given.containsKey(flag.name());
    }

    /** The flag's value (the last one, if given more than once), else its default (null when it has none). */
    @SuppressWarnings("unchecked")
    public <T> T get(Flag<T> flag) {
        List<Object> all = given.get(flag.name());
        return all == null ? flag.defaultValue() : (T) all.get(all.size() - 1);
    }

    /** Every value given for a repeatable flag, in order. */
    @SuppressWarnings("unchecked")
    public <T> List<T> all(Flag<T> flag) {
        List<Object> all = given.get(flag.name());
        if (all == null) {
            return Collections.emptyList();
        }
        List<T> typed = new ArrayList<>();
        all.forEach(v -> typed.add((T) v));
        return typed;
    }

    /** The flags given, in the order first seen. */
    public List<String> givenNames() {
        return new ArrayList<>(given.keySet());
    }

    /** The command line as typed. */
    public List<String> raw() {
        return raw;
    }

    static Args of(Map<String, List<Object>> given, List<String> raw) {
        return new Args(new LinkedHashMap<>(given), Jdk8.copyOf(raw));
    }
}
