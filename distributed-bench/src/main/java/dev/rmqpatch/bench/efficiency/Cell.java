package dev.rmqpatch.bench.efficiency;

import dev.rmqpatch.bench.report.Format;

/**
 * One condition of an efficiency run: a fixed rate and a CPU placement (brokers pinned or not). Each cell has pairs of
 * its own, interleaved in blocks with the other cells', and an interval of its own.
 */
final class Cell {
    final double rate;
    final boolean pinned;

    Cell(double rate, boolean pinned) {
        this.rate = rate;
        this.pinned = pinned;
    }

    /** A measured window of this cell (its rate and placement). */
    boolean contains(Window w) {
        return w.pinned == pinned && Math.abs(w.targetRateMsgPerS - rate) < 0.5;
    }

    String label() {
        return Format.num(rate, 0) + " msg/s " + (pinned ? "pinned" : "unpinned");
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Cell && ((Cell) o).rate == rate && ((Cell) o).pinned == pinned;
    }

    @Override
    public int hashCode() {
        return Double.hashCode(rate) * 31 + (pinned ? 1 : 0);
    }
}
