package dev.rmqpatch.bench.efficiency;

import dev.rmqpatch.bench.pinning.Placement;
import dev.rmqpatch.bench.report.Format;

/**
 * One condition of an efficiency run: a fixed rate and a CPU placement (brokers pinned, split or unpinned). Each cell
 * has pairs of its own, interleaved in blocks with the other cells', and an interval of its own.
 */
final class Cell {
    final double rate;
    final Placement placement;

    Cell(double rate, Placement placement) {
        this.rate = rate;
        this.placement = placement;
    }

    /** A measured window of this cell (its rate and placement). */
    boolean contains(Window w) {
        return placement.label.equals(w.placement) && Math.abs(w.targetRateMsgPerS - rate) < 0.5;
    }

    String label() {
        return Format.num(rate, 0) + " msg/s " + placement.label;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Cell && ((Cell) o).rate == rate && ((Cell) o).placement == placement;
    }

    @Override
    public int hashCode() {
        return Double.hashCode(rate) * 31 + placement.hashCode();
    }
}
