package dev.rmqpatch.bench.efficiency;

import java.util.ArrayList;
import java.util.List;

/**
 * The order of the cells' blocks: every round gives each cell one block; the rates rotate by one from round to round,
 * and the placements alternate (pinned first, then unpinned first), so that no cell always follows the same one and
 * drift over the run spreads over every cell; within a round a placement's blocks are adjacent, so pinning changes at
 * most twice per round.
 */
final class CellSchedule {

    private CellSchedule() {
    }

    static List<Cell> round(List<Cell> cells, int round) {
        List<Double> rates = new ArrayList<>();
        for (Cell c : cells) {
            if (!rates.contains(c.rate)) {
                rates.add(c.rate);
            }
        }
        List<Cell> order = new ArrayList<>();
        boolean pinnedFirst = round % 2 == 0;
        for (boolean pinned : new boolean[] {pinnedFirst, !pinnedFirst}) {
            for (int i = 0; i < rates.size(); i++) {
                double rate = rates.get((i + round) % rates.size());
                for (Cell c : cells) {
                    if (c.pinned == pinned && c.rate == rate) {
                        order.add(c);
                    }
                }
            }
        }
        return order;
    }
}
