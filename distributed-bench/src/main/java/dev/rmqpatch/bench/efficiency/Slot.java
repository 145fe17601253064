package dev.rmqpatch.bench.efficiency;

import dev.rmqpatch.bench.pinning.Placement;

/** One window to run: which variant, at what total rate (0 = unlimited), in which phase and pair, in which placement, profiled or not. */
record Slot(int variant, double rate, String phase, int pair, Placement placement, boolean profiled) {
}
