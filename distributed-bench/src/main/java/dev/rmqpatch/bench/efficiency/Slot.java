package dev.rmqpatch.bench.efficiency;

/** One window to run: which variant, at what total rate (0 = unlimited), in which phase and pair, pinned or not, profiled or not. */
record Slot(int variant, double rate, String phase, int pair, boolean pinned, boolean profiled) {
}
