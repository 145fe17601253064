package dev.rmqpatch.bench.efficiency;

import dev.rmqpatch.bench.pinning.Placement;
import java.util.ArrayList;
import java.util.List;

/**
 * The order of the cells' blocks: every round gives each cell one block; the rates rotate by one from round to round,
 * and so do the placements (with two, pinned first, then unpinned first; with three, pinned split unpinned, then split
 * unpinned pinned, ...), so that no cell always follows the same one and drift over the run spreads over every cell;
 * within a round a placement's blocks are adjacent, so the placement changes at most once per placement per round.
 */
final class CellSchedule {

    private CellSchedule() {
    }

    static List<Cell> round(List<Cell> cells, int round) {
        List<Double> rates = new ArrayList<>();
        List<Placement> placements = new ArrayList<>();
        for (Cell c : cells) {
            if (!rates.contains(c.rate)) {
                rates.add(c.rate);
            }
            if (!placements.contains(c.placement)) {
                placements.add(c.placement);
            }
        }
        placements.sort(null);
        List<Cell> order = new ArrayList<>();
        for (int j = 0; j < placements.size(); j++) {
            Placement placement = placements.get((j + round) % placements.size());
            for (int i = 0; i < rates.size(); i++) {
                double rate = rates.get((i + round) % rates.size());
                for (Cell c : cells) {
                    if (c.placement == placement && c.rate == rate) {
                        order.add(c);
                    }
                }
            }
        }
        return order;
    }
}
