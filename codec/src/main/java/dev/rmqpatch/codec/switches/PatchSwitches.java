package dev.rmqpatch.codec.switches;

import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * Which patches run in this JVM. Every patched method first reads its patch's flag here and takes the stock
 * code path when the flag is false, so {@code -Drmqpatch.disable=P3,S2} at start turns patches off without a
 * rebuild. The flags are static finals, read once, so the JIT folds each check to a constant.
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
            "P26", "P27", "P28", "P30", "P31", "P32", "P33", "P34", "P35", "P36",
            "S1", "S2", "S3", "S4", "S5", "S6", "S7", "S8", "S9"));

    // A bad value fails here too (ExceptionInInitializerError) rather than run patches the operator wanted off;
    // the start-up hook reports the same error first, with its message, before anything else starts.
    private static final Set<String> DISABLED = parse(System.getProperty(SYSTEM_PROPERTY));

    public static final boolean P1 = !DISABLED.contains("P1");
    public static final boolean P2 = !DISABLED.contains("P2");
    public static final boolean P3 = !DISABLED.contains("P3");
    public static final boolean P4 = !DISABLED.contains("P4");
    public static final boolean P5 = !DISABLED.contains("P5");
    public static final boolean P6 = !DISABLED.contains("P6");
    public static final boolean P7 = !DISABLED.contains("P7");
    public static final boolean P8 = !DISABLED.contains("P8");
    public static final boolean P9 = !DISABLED.contains("P9");
    public static final boolean P10 = !DISABLED.contains("P10");
    public static final boolean P11 = !DISABLED.contains("P11");
    public static final boolean P12 = !DISABLED.contains("P12");
    public static final boolean P13 = !DISABLED.contains("P13");
    public static final boolean P14 = !DISABLED.contains("P14");
    public static final boolean P15 = !DISABLED.contains("P15");
    public static final boolean P16 = !DISABLED.contains("P16");
    public static final boolean P17 = !DISABLED.contains("P17");
    public static final boolean P18 = !DISABLED.contains("P18");
    public static final boolean P19 = !DISABLED.contains("P19");
    public static final boolean P20 = !DISABLED.contains("P20");
    public static final boolean P21 = !DISABLED.contains("P21");
    public static final boolean P22 = !DISABLED.contains("P22");
    public static final boolean P23 = !DISABLED.contains("P23");
    public static final boolean P24 = !DISABLED.contains("P24");
    public static final boolean P26 = !DISABLED.contains("P26");
    public static final boolean P27 = !DISABLED.contains("P27");
    public static final boolean P28 = !DISABLED.contains("P28");
    public static final boolean P30 = !DISABLED.contains("P30");
    public static final boolean P31 = !DISABLED.contains("P31");
    public static final boolean P32 = !DISABLED.contains("P32");
    public static final boolean P33 = !DISABLED.contains("P33");
    public static final boolean P34 = !DISABLED.contains("P34");
    public static final boolean P35 = !DISABLED.contains("P35");
    public static final boolean P36 = !DISABLED.contains("P36");
    public static final boolean S1 = !DISABLED.contains("S1");
    public static final boolean S2 = !DISABLED.contains("S2");
    public static final boolean S3 = !DISABLED.contains("S3");
    public static final boolean S4 = !DISABLED.contains("S4");
    public static final boolean S5 = !DISABLED.contains("S5");
    public static final boolean S6 = !DISABLED.contains("S6");
    public static final boolean S7 = !DISABLED.contains("S7");
    public static final boolean S8 = !DISABLED.contains("S8");
    public static final boolean S9 = !DISABLED.contains("S9");

    private PatchSwitches() {
    }

    /** The ids turned off in this JVM, in the order given. */
    public static Set<String> disabled() {
        return DISABLED;
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
