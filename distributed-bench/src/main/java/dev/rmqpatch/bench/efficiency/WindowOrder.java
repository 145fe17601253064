package dev.rmqpatch.bench.efficiency;

import java.util.ArrayList;
import java.util.List;

/**
 * Counterbalanced order of the windows: pair p loads every variant once, forwards on even pairs and backwards on odd
 * ones (A B | B A | A B ..., with three variants A B C | C B A ...). Each variant is first as often as last, and over
 * two consecutive pairs a drift that is linear in time adds the same to every variant.
 */
public final class WindowOrder {
    private WindowOrder() {
    }

    /** Variant indexes in the order pair {@code pairIndex} (0-based, counted over the run) loads them. */
    public static List<Integer> of(int pairIndex, int variants) {
        List<Integer> order = new ArrayList<>();
        for (int i = 0; i < variants; i++) {
            order.add(pairIndex % 2 == 0 ? i : variants - 1 - i);
        }
        return order;
    }
}
