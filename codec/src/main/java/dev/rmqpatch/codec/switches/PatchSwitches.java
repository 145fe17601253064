package dev.rmqpatch.codec.switches;

import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * Which patches run in this JVM. Every patched method first reads its patch's flag here and takes the stock
 * code path when the flag is false, so {@code -Drmqpatch.disable=P3,S2} at start turns patches off without a
 * rebuild. The patches in {@link #OFF_BY_DEFAULT} take the stock path unless {@code -Drmqpatch.enable=P14} (say)
 * names them; a patch both enabled and disabled is off. The flags are static finals, read once, so the JIT folds
 * each check to a constant.
 */
public final class PatchSwitches {

    /** The start-up switch: comma-separated patch ids to turn off, or {@value #ALL} for every one. */
    public static final String SYSTEM_PROPERTY = "rmqpatch.disable";

    /** {@code -Drmqpatch.disable=all}: every patch off, without listing the ids (a roll-back that outlives new ids). */
    public static final String ALL = "all";

    /** Manifest attribute of a rewritten jar that lists its patches ("P1 header-decode, P4 ..."). */
    public static final String MANIFEST_ATTRIBUTE = "RocketMQ-Patches";

    /**
     * Every id a patched jar can carry, in build order: one flag below per id. broker-patches' list of patches is
     * checked against this one by a test, so a new patch cannot ship without its switch.
     */
    public static final List<String> IDS =
        Collections.unmodifiableList(Arrays.asList(
            "P1", "P2", "P3", "P4", "P5", "P6", "P7", "P8", "P9", "P10", "P11", "P12", "P13", "P14", "P15",
            "P16", "P17", "P18", "P19", "P20",
            "P21", "P22", "P23", "P24",
            "P26", "P27", "P28", "P30", "P31", "P32", "P33", "P34", "P35", "P36", "P37", "P38", "P39", "P40",
            "S1", "S2", "S3", "S4", "S5", "S6", "S7", "S8", "S9"));

    /** The start-up switch for the patches that ship off: comma-separated ids from {@link #OFF_BY_DEFAULT}. */
    public static final String ENABLE_PROPERTY = "rmqpatch.enable";

    /**
     * Patches in the jars that run only when {@code -Drmqpatch.enable} names them: each was measured to cost more than
     * it buys in the configuration most operators run (the reason is in its patch class and in README). Checked
     * against broker-patches' {@code Patch.onByDefault()} by a test.
     */
    public static final List<String> OFF_BY_DEFAULT = Collections.unmodifiableList(Arrays.asList("P14", "P38"));

    // A bad value fails here too (ExceptionInInitializerError) rather than run patches the operator wanted off;
    // the start-up hook reports the same error first, with its message, before anything else starts.
    private static final Set<String> DISABLED = parse(System.getProperty(SYSTEM_PROPERTY));
    private static final Set<String> ENABLED = parseEnabled(System.getProperty(ENABLE_PROPERTY));
    private static final Set<String> OFF = off(DISABLED, ENABLED);

    public static final boolean P1 = !OFF.contains("P1");
    public static final boolean P2 = !OFF.contains("P2");
    public static final boolean P3 = !OFF.contains("P3");
    public static final boolean P4 = !OFF.contains("P4");
    public static final boolean P5 = !OFF.contains("P5");
    public static final boolean P6 = !OFF.contains("P6");
    public static final boolean P7 = !OFF.contains("P7");
    public static final boolean P8 = !OFF.contains("P8");
    public static final boolean P9 = !OFF.contains("P9");
    public static final boolean P10 = !OFF.contains("P10");
    public static final boolean P11 = !OFF.contains("P11");
    public static final boolean P12 = !OFF.contains("P12");
    public static final boolean P13 = !OFF.contains("P13");
    public static final boolean P14 = !OFF.contains("P14");
    public static final boolean P15 = !OFF.contains("P15");
    public static final boolean P16 = !OFF.contains("P16");
    public static final boolean P17 = !OFF.contains("P17");
    public static final boolean P18 = !OFF.contains("P18");
    public static final boolean P19 = !OFF.contains("P19");
    public static final boolean P20 = !OFF.contains("P20");
    public static final boolean P21 = !OFF.contains("P21");
    public static final boolean P22 = !OFF.contains("P22");
    public static final boolean P23 = !OFF.contains("P23");
    public static final boolean P24 = !OFF.contains("P24");
    public static final boolean P26 = !OFF.contains("P26");
    public static final boolean P27 = !OFF.contains("P27");
    public static final boolean P28 = !OFF.contains("P28");
    public static final boolean P30 = !OFF.contains("P30");
    public static final boolean P31 = !OFF.contains("P31");
    public static final boolean P32 = !OFF.contains("P32");
    public static final boolean P33 = !OFF.contains("P33");
    public static final boolean P34 = !OFF.contains("P34");
    public static final boolean P35 = !OFF.contains("P35");
    public static final boolean P36 = !OFF.contains("P36");
    public static final boolean P37 = !OFF.contains("P37");
    public static final boolean P38 = !OFF.contains("P38");
    public static final boolean P39 = !OFF.contains("P39");
    public static final boolean P40 = !OFF.contains("P40");
    public static final boolean S1 = !OFF.contains("S1");
    public static final boolean S2 = !OFF.contains("S2");
    public static final boolean S3 = !OFF.contains("S3");
    public static final boolean S4 = !OFF.contains("S4");
    public static final boolean S5 = !OFF.contains("S5");
    public static final boolean S6 = !OFF.contains("S6");
    public static final boolean S7 = !OFF.contains("S7");
    public static final boolean S8 = !OFF.contains("S8");
    public static final boolean S9 = !OFF.contains("S9");

    private PatchSwitches() {
    }

    /** The ids turned off by {@value #SYSTEM_PROPERTY} in this JVM, in the order given. */
    public static Set<String> disabled() {
        return DISABLED;
    }

    /** The ids {@value #ENABLE_PROPERTY} turned on in this JVM (never a disabled one: disabling wins). */
    public static Set<String> enabled() {
        Set<String> on = new LinkedHashSet<String>(ENABLED);
        on.removeAll(DISABLED);
        return Collections.unmodifiableSet(on);
    }

    /** Every id whose stock path runs in this JVM: the disabled ones and the off-by-default ones not enabled. */
    public static Set<String> off() {
        return OFF;
    }

    static Set<String> off(Set<String> disabled, Set<String> enabled) {
        Set<String> off = new LinkedHashSet<String>(disabled);
        for (String id : OFF_BY_DEFAULT) {
            if (!enabled.contains(id)) {
                off.add(id);
            }
        }
        return Collections.unmodifiableSet(off);
    }

    /**
     * Parses a {@value #ENABLE_PROPERTY} value: ids from {@link #OFF_BY_DEFAULT}, separated by commas, blanks ignored.
     * There is no "all": a patch that ships off is turned on by name only.
     *
     * @throws IllegalArgumentException naming every id that is unknown or already on by default
     */
    public static Set<String> parseEnabled(String value) {
        Set<String> ids = new LinkedHashSet<String>();
        if (value == null) {
            return Collections.unmodifiableSet(ids);
        }
        Set<String> wrong = new LinkedHashSet<String>();
        for (String part : value.split(",")) {
            String id = part.trim();
            if (id.isEmpty()) {
                continue;
            }
            if (OFF_BY_DEFAULT.contains(id)) {
                ids.add(id);
            } else {
                wrong.add(id);
            }
        }
        if (!wrong.isEmpty()) {
            throw new IllegalArgumentException("-D" + ENABLE_PROPERTY + "=" + value + " names " + wrong + ", which "
                + (wrong.size() == 1 ? "is not a patch that ships off" : "are not patches that ship off")
                + "; only " + OFF_BY_DEFAULT + " can be enabled (every other patch is on unless -D" + SYSTEM_PROPERTY
                + " names it)");
        }
        return Collections.unmodifiableSet(ids);
    }

    /**
     * Parses a {@value #SYSTEM_PROPERTY} value: ids separated by commas, blanks ignored, case as listed in
     * {@link #IDS}; {@value #ALL} stands for every id. Null or blank means none.
     *
     * @throws IllegalArgumentException naming every unknown id and the known ones
     */
    public static Set<String> parse(String value) {
        Set<String> ids = new LinkedHashSet<String>();
        if (value == null) {
            return Collections.unmodifiableSet(ids);
        }
        Set<String> unknown = new LinkedHashSet<String>();
        for (String part : value.split(",")) {
            String id = part.trim();
            if (id.isEmpty()) {
                continue;
            }
            if (id.equals(ALL)) {
                ids.addAll(IDS);
            } else if (IDS.contains(id)) {
                ids.add(id);
            } else {
                unknown.add(id);
            }
        }
        if (!unknown.isEmpty()) {
            throw new IllegalArgumentException("-D" + SYSTEM_PROPERTY + "=" + value + " names unknown patch id(s) "
                + unknown + "; the known ids are " + IDS + " (or " + ALL + ")");
        }
        return Collections.unmodifiableSet(ids);
    }
}
