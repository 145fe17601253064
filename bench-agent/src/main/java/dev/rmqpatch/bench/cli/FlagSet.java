package dev.rmqpatch.bench.cli;

import dev.rmqpatch.bench.lang.Jdk8;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A command's flags, in titled sections: parses {@code --name value}, {@code --name=value} and switches against them
 * (a mistyped or repeated-but-single flag is an error, not silently ignored), and generates the command's help.
 */
public final class FlagSet {
    private static final int WIDTH = 116;
    private static final int COLUMN = 26;

    private final String usage;
    private final String description;
    private final Map<String, List<Flag<?>>> sections = new LinkedHashMap<>();
    private final Map<String, String> sectionNotes = new LinkedHashMap<>();
    private final Map<String, Flag<?>> byName = new LinkedHashMap<>();
    private final List<String> epilogue = new ArrayList<>();

    /** {@code usage}: the first lines of the help; {@code description}: the paragraph under them (may be empty). */
    public FlagSet(String usage, String description) {
        this.usage = usage;
        this.description = description;
    }

    /** Adds a titled section of flags; a name declared twice is a programming error. */
    public FlagSet section(String title, Flag<?>... flags) {
        return section(title, null, flags);
    }

    /** Adds a titled section with a note printed under its title. */
    public FlagSet section(String title, String note, Flag<?>... flags) {
        List<Flag<?>> list = sections.computeIfAbsent(title, k -> new ArrayList<>());
        for (Flag<?> f : flags) {
            if (byName.putIfAbsent(f.name(), f) != null) {
                throw new IllegalStateException(f.name() + " declared twice in one command");
            }
            list.add(f);
        }
        if (note != null) {
            sectionNotes.put(title, note);
        }
        return this;
    }

    /** Text printed after the flags (e.g. what the output folder holds). */
    public FlagSet epilogue(String text) {
        epilogue.add(text);
        return this;
    }

    /** The flags of one section, as declared. */
    public List<Flag<?>> flagsOf(String title) {
        return Jdk8.copyOf(sections.getOrDefault(title, Jdk8.listOf()));
    }

    public List<Flag<?>> all() {
        return Jdk8.copyOf(byName.values());
    }

    public Args parse(String[] args) throws UsageException {
        Map<String, List<Object>> given = new LinkedHashMap<>();
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
            Flag<?> flag = byName.get(name);
            if (flag == null) {
                throw new UsageException("unknown option '" + name + "'");
            }
            Object value;
            if (flag.isToggle()) {
                if (inline != null) {
                    throw new UsageException(name + " takes no value");
                }
                value = Boolean.TRUE;
            } else {
                String raw = inline;
                if (raw == null) {
                    if (i + 1 >= args.length) {
                        throw new UsageException(name + " needs a value");
                    }
                    raw = args[++i];
                }
                value = flag.parse(raw);
            }
            given.computeIfAbsent(name, k -> new ArrayList<>()).add(value);
        }
        return Args.of(given, Arrays.asList(args));
    }

    /** The help: usage, description, each section's flags with their help and defaults, the epilogue. */
    public String help() {
        StringBuilder b = new StringBuilder(Jdk8.stripTrailing(usage)).append('\n');
        if (!Jdk8.isBlank(description)) {
            b.append('\n').append(Jdk8.stripTrailing(description)).append('\n');
        }
        for (Map.Entry<String, List<Flag<?>>> s : sections.entrySet()) {
            b.append('\n').append(s.getKey()).append('\n');
            String note = sectionNotes.get(s.getKey());
            if (note != null) {
                wrap(b, "  ", "  ", note);
            }
            for (Flag<?> f : s.getValue()) {
                String first = "  " + f.synopsis();
                if (first.length() >= COLUMN) {
                    b.append(first).append('\n');
                    first = "";
                }
                wrap(b, pad(first), Jdk8.repeat(" ", COLUMN), f.fullHelp());
            }
        }
        for (String e : epilogue) {
            b.append('\n');
            wrap(b, "", "", e);
        }
        return Jdk8.stripTrailing(b.toString());
    }

    private static String pad(String s) {
        return s + Jdk8.repeat(" ", Math.max(0, COLUMN - s.length()));
    }

    /** Word-wraps {@code text} to the help's width; explicit newlines in it start new lines with the same indent. */
    private static void wrap(StringBuilder b, String firstIndent, String indent, String text) {
        String lead = firstIndent;
        for (String paragraph : text.split("\n", -1)) {
            StringBuilder line = new StringBuilder(lead);
            int base = line.length();
            for (String word : paragraph.split(" ")) {
                if (line.length() > base && line.length() + 1 + word.length() > WIDTH) {
                    b.append(Jdk8.stripTrailing(line.toString())).append('\n');
                    line = new StringBuilder(indent);
                    base = line.length();
                }
                if (line.length() > base) {
                    line.append(' ');
                }
                line.append(word);
            }
            b.append(Jdk8.stripTrailing(line.toString())).append('\n');
            lead = indent;
        }
    }
}
