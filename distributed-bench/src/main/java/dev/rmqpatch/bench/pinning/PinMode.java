package dev.rmqpatch.bench.pinning;

import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;

/**
 * --pin: which placements ({@link Placement}) the measured cells have, each rate measured in each, interleaved, each
 * with its own interval; or {@code auto}: pinned and unpinned calibrated against each other, the one whose pairs scatter
 * less kept. Named values: {@code both} (pinned and unpinned, the default), {@code all} (pinned, split and unpinned),
 * {@code auto}, and one placement alone: {@code on}, {@code off}, {@code split}; or a comma list of {@code on}, {@code off}
 * and {@code split} in any order ({@code split,off}).
 */
public final class PinMode {
    public static final PinMode BOTH = new PinMode("both", List.of(Placement.PINNED, Placement.UNPINNED), false);
    public static final PinMode ALL = new PinMode("all", List.of(Placement.PINNED, Placement.SPLIT, Placement.UNPINNED), false);
    public static final PinMode AUTO = new PinMode("auto", List.of(Placement.PINNED, Placement.UNPINNED), true);
    public static final PinMode ON = new PinMode("on", List.of(Placement.PINNED), false);
    public static final PinMode OFF = new PinMode("off", List.of(Placement.UNPINNED), false);
    public static final PinMode SPLIT = new PinMode("split", List.of(Placement.SPLIT), false);
    private static final List<PinMode> NAMED = List.of(BOTH, ALL, AUTO, ON, OFF, SPLIT);
    /** What the help shows as the flag's value. */
    public static final String VALUES = "both|all|auto|on|off|split|LIST";

    private final String label;
    private final List<Placement> placements;
    private final boolean auto;

    private PinMode(String label, List<Placement> placements, boolean auto) {
        this.label = label;
        this.placements = List.copyOf(placements);
        this.auto = auto;
    }

    /** As the flag would be written: a named value, or the placements' words in table order. */
    public String label() {
        return label;
    }

    /** The measured placements, in table order; with auto the two it chooses between. */
    public List<Placement> placements() {
        return placements;
    }

    public boolean auto() {
        return auto;
    }

    public boolean has(Placement p) {
        return placements.contains(p);
    }

    /** Nothing is ever pinned: warm-up and rate check run unpinned too. */
    public boolean neverPins() {
        return placements.equals(List.of(Placement.UNPINNED));
    }

    /** @throws IllegalArgumentException naming the allowed values */
    public static PinMode parse(String text) {
        String t = text == null ? "" : text.trim();
        for (PinMode m : NAMED) {
            if (m.label.equals(t)) {
                return m;
            }
        }
        if (!t.contains(",")) {
            throw wrong(text);
        }
        Set<Placement> chosen = EnumSet.noneOf(Placement.class);
        for (String part : t.split(",", -1)) {
            Placement p = null;
            for (Placement q : Placement.values()) {
                if (q.word.equals(part.trim())) {
                    p = q;
                }
            }
            if (p == null) {
                throw new IllegalArgumentException("--pin: a list names placements (on, off, split), not '" + part.trim() + "' in '" + text
                    + "'; both, all and auto stand alone");
            }
            if (!chosen.add(p)) {
                throw new IllegalArgumentException("--pin names " + p.word + " twice in '" + text + "'");
            }
        }
        List<Placement> ordered = new ArrayList<>(chosen);
        for (PinMode m : NAMED) {
            if (!m.auto && m.placements.equals(ordered)) {
                return m;
            }
        }
        List<String> words = new ArrayList<>();
        ordered.forEach(p -> words.add(p.word));
        return new PinMode(String.join(",", words), ordered, false);
    }

    private static IllegalArgumentException wrong(String text) {
        return new IllegalArgumentException("--pin must be both, all, auto, on, off, split or a comma list of on, off and split "
            + "(e.g. split,off), not '" + text + "'");
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof PinMode && ((PinMode) o).label.equals(label);
    }

    @Override
    public int hashCode() {
        return label.hashCode();
    }

    @Override
    public String toString() {
        return label;
    }
}
