package dev.rmqpatch.patches;

import java.util.Arrays;
import java.util.Collections;
import java.util.List;

/** Every patch rmqpatch applies, in the order they are applied and listed. A new patch is one class added here. */
public final class Patches {

    private static final List<Patch> ALL = Collections.unmodifiableList(Arrays.<Patch>asList(
        new HeaderDecodePatch(),
        new PropertiesCodecPatch(),
        new TransientPropertiesPatch(),
        new ResponseHeaderEncodePatch()));

    private Patches() {
    }

    public static List<Patch> all() {
        return ALL;
    }
}
