package dev.rmqpatch.bench.cli;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * Parses {@code --name value}, {@code --name=value} and boolean {@code --name} options against a fixed list, so a
 * mistyped flag is an error instead of being silently ignored.
 */
public final class Flags {
    private final Map<String, List<String>> values;
    private final Set<String> switches;

    private Flags(Map<String, List<String>> values, Set<String> switches) {
        this.values = values;
        this.switches = switches;
    }

    public static Flags parse(String[] args, Set<String> valued, Set<String> booleans) throws UsageException {
        Map<String, List<String>> values = new LinkedHashMap<>();
        Set<String> switches = new TreeSet<>();
        for (int i = 0; i < args.length; i++) {
            String arg = args[i];
            if (!arg.startsWith("--")) {
                throw new UsageException("unexpected argument '" + arg + "'");
            }
            String name = arg;
            String inline = null;
            int eq = arg.indexOf('=');
            if (eq > 0) {
                name = arg.substring(0, eq);
                inline = arg.substring(eq + 1);
            }
            if (booleans.contains(name)) {
                if (inline != null) {
                    throw new UsageException(name + " takes no value");
                }
                switches.add(name);
            } else if (valued.contains(name)) {
                String value = inline;
                if (value == null) {
                    if (i + 1 >= args.length) {
                        throw new UsageException(name + " needs a value");
                    }
                    value = args[++i];
                }
                values.computeIfAbsent(name, k -> new ArrayList<>()).add(value);
            } else {
                throw new UsageException("unknown option '" + name + "'");
            }
        }
        return new Flags(values, switches);
    }

    public boolean has(String name) {
        return switches.contains(name) || values.containsKey(name);
    }

    public String get(String name, String fallback) {
        List<String> all = values.get(name);
        return all == null ? fallback : all.get(all.size() - 1);
    }

    public List<String> all(String name) {
        return values.getOrDefault(name, Collections.emptyList());
    }

    public int intValue(String name, int fallback, int min) throws UsageException {
        String v = get(name, null);
        if (v == null) {
            return fallback;
        }
        try {
            int parsed = Integer.parseInt(v.trim());
            if (parsed < min) {
                throw new UsageException(name + " must be at least " + min + ", not " + v);
            }
            return parsed;
        } catch (NumberFormatException e) {
            throw new UsageException(name + " needs a whole number, not '" + v + "'");
        }
    }

    public double doubleValue(String name, double fallback, double min) throws UsageException {
        String v = get(name, null);
        if (v == null) {
            return fallback;
        }
        try {
            double parsed = Double.parseDouble(v.trim());
            if (!(parsed >= min) || Double.isInfinite(parsed)) {
                throw new UsageException(name + " must be a number of at least " + min + ", not " + v);
            }
            return parsed;
        } catch (NumberFormatException e) {
            throw new UsageException(name + " needs a number, not '" + v + "'");
        }
    }
}
