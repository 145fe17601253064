package dev.rmqpatch.stall;

import java.lang.instrument.Instrumentation;

/**
 * {@code -javaagent:rmqpatch-stall-agent.jar=point=append,millis=500,everyMillis=3000}: a test and harness tool that
 * makes a broker's store stall now and then ({@link StallPlan}, {@link StallPoint}). Never part of a delivered broker:
 * only a test or a harness run that asks for stalls puts it on a broker's command line. A bad argument stops the JVM
 * at start, with the reason.
 */
public final class StallAgent {
    private StallAgent() {
    }

    public static void premain(String args, Instrumentation inst) {
        StallPlan plan = StallPlan.parse(args);
        Stalls.arm(plan, System.out);
        inst.addTransformer(new StallTransformer(plan.point));
        System.out.println("[rmqpatch-stall] armed: " + plan);
    }
}
