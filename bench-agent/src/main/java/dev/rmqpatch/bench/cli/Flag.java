package dev.rmqpatch.bench.cli;

import dev.rmqpatch.bench.lang.Jdk8;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.Objects;

/**
 * One command-line flag, declared once: its name, the kind of value it takes, its default, its help text and its
 * constraints. The help of a command ({@link FlagSet#help()}) is generated from these declarations, and parsing
 * ({@link FlagSet#parse}) checks against them, so a flag cannot be accepted without being documented or the other way round.
 *
 * <p>A command whose default differs from another command's uses {@link #defaultingTo}: the same declaration with its own
 * default, not a second declaration.
 *
 * @param <T> the parsed value's type
 */
public final class Flag<T> {
    /** Turns the text after the flag into its value, or throws with a message naming what was expected. */
    @FunctionalInterface
    public interface Parser<T> {
        T parse(String name, String raw) throws UsageException;
    }

    private final String name;
    private final String valueName;
    private final String help;
    private final Parser<T> parser;
    private final T defaultValue;
    private final String defaultText;
    private final boolean repeatable;

    private Flag(String name, String valueName, String help, Parser<T> parser, T defaultValue, String defaultText, boolean repeatable) {
        if (!name.startsWith("--")) {
            throw new IllegalArgumentException("a flag's name starts with --: " + name);
        }
        this.name = name;
        this.valueName = valueName;
        this.help = help;
        this.parser = parser;
        this.defaultValue = defaultValue;
        this.defaultText = defaultText;
        this.repeatable = repeatable;
    }

    /** A switch: present or not, no value. */
    public static Flag<Boolean> toggle(String name, String help) {
        return new Flag<>(name, null, help, (n, raw) -> Boolean.TRUE, Boolean.FALSE, null, false);
    }

    /** Free text. */
    public static Flag<String> text(String name, String valueName, String help) {
        return new Flag<>(name, valueName, help, (n, raw) -> raw, null, null, false);
    }

    /** A whole number of at least {@code min}. */
    public static Flag<Integer> whole(String name, String valueName, int min, String help) {
        return new Flag<>(name, valueName, help, (n, raw) -> {
            int parsed;
            try {
                parsed = Integer.parseInt(Jdk8.strip(raw));
            } catch (NumberFormatException e) {
                throw new UsageException(n + " needs a whole number, not '" + raw + "'");
            }
            if (parsed < min) {
                throw new UsageException(n + " must be at least " + min + ", not " + raw);
            }
            return parsed;
        }, null, null, false);
    }

    /** A finite number of at least {@code min}. */
    public static Flag<Double> number(String name, String valueName, double min, String help) {
        return new Flag<>(name, valueName, help, (n, raw) -> {
            double parsed;
            try {
                parsed = Double.parseDouble(Jdk8.strip(raw));
            } catch (NumberFormatException e) {
                throw new UsageException(n + " needs a number, not '" + raw + "'");
            }
            if (!(parsed >= min) || Double.isInfinite(parsed)) {
                throw new UsageException(n + " must be a number of at least " + min + ", not " + raw);
            }
            return parsed;
        }, null, null, false);
    }

    /** A file or folder, taken as given (relative to the working directory). */
    public static Flag<Path> path(String name, String valueName, String help) {
        return new Flag<>(name, valueName, help, (n, raw) -> Paths.get(raw), null, null, false);
    }

    /** A process id. */
    public static Flag<Long> pid(String name, String help) {
        return new Flag<>(name, "PID", help, (n, raw) -> {
            try {
                return Long.parseLong(Jdk8.strip(raw));
            } catch (NumberFormatException e) {
                throw new UsageException(n + " needs a process id, not '" + raw + "'");
            }
        }, null, null, false);
    }

    /** One of the given words. */
    public static Flag<String> oneOf(String name, String help, String... words) {
        java.util.List<String> allowed = Jdk8.listOf(words);
        String listed = String.join(" or ", words);
        return new Flag<>(name, String.join("|", words), help, (n, raw) -> {
            if (!allowed.contains(raw)) {
                throw new UsageException(n + " must be " + listed + ", not '" + raw + "'");
            }
            return raw;
        }, null, null, false);
    }

    /** A value a domain parser reads (an enum's {@code parse}); its IllegalArgumentException message becomes the error. */
    public static <T> Flag<T> parsed(String name, String valueName, java.util.function.Function<String, T> parse, String help) {
        return new Flag<>(name, valueName, help, (n, raw) -> {
            try {
                return parse.apply(raw);
            } catch (IllegalArgumentException e) {
                throw new UsageException(e.getMessage());
            }
        }, null, null, false);
    }

    /** Any other value type, with its own parser. */
    public static <T> Flag<T> of(String name, String valueName, Parser<T> parser, String help) {
        return new Flag<>(name, valueName, help, parser, null, null, false);
    }

    /** The same flag with this default (shown in the help as {@code (default <value>)}). */
    public Flag<T> defaultingTo(T value) {
        return new Flag<>(name, valueName, help, parser, value, String.valueOf(value), repeatable);
    }

    /** The same flag with this default, shown in the help as the given words (e.g. "from the probe"). */
    public Flag<T> defaultingTo(T value, String shown) {
        return new Flag<>(name, valueName, help, parser, value, shown, repeatable);
    }

    /**
     * The same flag (name, value, parsing, default) with another command's wording of its help, for a command whose
     * context the shared wording does not fit (say, no agents); not a second declaration.
     */
    public Flag<T> describedAs(String otherHelp) {
        return new Flag<>(name, valueName, otherHelp, parser, defaultValue, defaultText, repeatable);
    }

    /** The same flag, allowed more than once ({@link Args#all}). */
    public Flag<T> repeatable() {
        return new Flag<>(name, valueName, help, parser, defaultValue, defaultText, true);
    }

    public String name() {
        return name;
    }

    /** True for a switch, which takes no value. */
    public boolean isToggle() {
        return valueName == null;
    }

    public boolean isRepeatable() {
        return repeatable;
    }

    public T defaultValue() {
        return defaultValue;
    }

    T parse(String raw) throws UsageException {
        return parser.parse(name, raw);
    }

    /** The first column of the help: {@code --name VALUE}. */
    String synopsis() {
        return valueName == null ? name : name + " " + valueName;
    }

    /** The help text with the default appended, if there is one to show. */
    String fullHelp() {
        return defaultText == null || isToggle() ? help : help + " (default " + defaultText + ")";
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Flag<?> && ((Flag<?>) o).name.equals(name);
    }

    @Override
    public int hashCode() {
        return Objects.hash(name);
    }

    @Override
    public String toString() {
        return name;
    }
}
