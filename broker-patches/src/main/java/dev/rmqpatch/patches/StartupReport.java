package dev.rmqpatch.patches;

import java.util.Arrays;
import java.util.Collections;
import java.util.List;

import dev.rmqpatch.patches.transform.EntryHook;
import dev.rmqpatch.patches.transform.MethodEdit;

/**
 * Not a patch but what makes the switches usable: start-up of the patched broker and name server checks
 * {@code -Drmqpatch.disable} (an unknown id stops start-up with a message naming it) and logs which patches the
 * jars carry, which run and which are off. Applied without a switch, and only to jars that carry a patch.
 */
public final class StartupReport {

    private static final List<MethodEdit> EDITS = Collections.unmodifiableList(Arrays.<MethodEdit>asList(
        new EntryHook(Stock.CREATE_BROKER_CONTROLLER, Codec.BROKER_STARTING),
        new EntryHook(Stock.BROKER_CONTROLLER_START, Codec.BROKER_STARTED),
        new EntryHook(Stock.CREATE_NAMESRV_CONTROLLER, Codec.NAMESRV_STARTING),
        new EntryHook(Stock.NAMESRV_CONTROLLER_START, Codec.NAMESRV_STARTED)));

    private StartupReport() {
    }

    public static List<MethodEdit> edits() {
        return EDITS;
    }
}
