package dev.rmqpatch.bench.engine;

import java.util.ArrayList;
import java.util.List;
import java.util.ServiceLoader;

/** The {@link Plan}s on the class path (META-INF/services/dev.rmqpatch.bench.engine.Plan), the default one first. */
public final class Plans {
    private Plans() {
    }

    /** Fresh instances: a plan keeps the state of one run. */
    public static List<Plan> all() {
        List<Plan> plans = new ArrayList<>();
        for (Plan p : ServiceLoader.load(Plan.class, Plans.class.getClassLoader())) {
            plans.add(p);
        }
        plans.sort((a, b) -> a.selector() == null ? -1 : b.selector() == null ? 1 : a.selector().name().compareTo(b.selector().name()));
        if (plans.isEmpty() || plans.get(0).selector() != null || (plans.size() > 1 && plans.get(1).selector() == null)) {
            throw new IllegalStateException("exactly one plan must have no selector (the default): " + plans);
        }
        return plans;
    }
}
