package dev.rmqpatch.agent;

import java.lang.instrument.Instrumentation;
import java.util.Set;

import dev.rmqpatch.patches.Patch;
import dev.rmqpatch.patches.PatchTargets;
import dev.rmqpatch.patches.Patches;
import dev.rmqpatch.patches.Release;

/**
 * rmqpatch as a Java agent: {@code java -javaagent:rmqpatch-agent.jar ...} rewrites RocketMQ 4.9.0's classes as they
 * load, with the same edits, switches ({@code -Drmqpatch.disable=ID}) and start-up report as the patched jars, in a
 * broker, a name server or any JVM that loads RocketMQ 4.9.0 (a client application's fat jar too). What it does to a
 * class loader's classes is {@link PatchPlan}'s; how the codec reaches them is {@link CodecAccess}'s. Every message it
 * prints is one line on stderr starting with {@value #PREFIX}. {@code java -jar rmqpatch-agent.jar} prints the help.
 */
public final class Agent {

    static final String PREFIX = "rmqpatch-agent: ";
    /** The codec's switch (PatchSwitches.SYSTEM_PROPERTY), read by the patched classes, not by the agent. */
    static final String SWITCH_PROPERTY = "rmqpatch.disable";

    private Agent() {
    }

    public static void premain(String args, Instrumentation inst) {
        if (args != null && !args.trim().isEmpty()) {
            say("takes no options (got '" + args + "'; patches are switched off with -D" + SWITCH_PROPERTY
                + "=ID): nothing applied, RocketMQ runs stock");
            return;
        }
        Set<String> targets = PatchPlan.targetClasses();
        for (Class<?> c : inst.getAllLoadedClasses()) {
            if (targets.contains(c.getName().replace('.', '/'))) {
                say(c.getName() + " was loaded before the agent started: left stock"
                    + " (give -javaagent before other agents)");
            }
        }
        inst.addTransformer(new PatchTransformer(new CodecAccess(inst)), false);
    }

    /** Prints the help: what the agent does, how to use it, the patches it carries. */
    public static void main(String[] args) {
        boolean help = args.length == 1 && (args[0].equals("--help") || args[0].equals("-h"));
        if (args.length > 0 && !help) {
            System.err.println("rmqpatch-agent.jar is a Java agent, not a program: unknown argument '" + args[0]
                + "'. Run it with --help.");
            System.exit(2);
        }
        StringBuilder sb = new StringBuilder();
        sb.append("rmqpatch-agent: rmqpatch's patches for Apache RocketMQ ").append(Release.supported())
            .append(", applied as classes load.\n\n")
            .append("Usage: add to the JVM's flags (the broker's and name server's JAVA_OPT, or any java command")
            .append(" line,\n  an application's too, fat jar or not)\n")
            .append("  -javaagent:/path/to/rmqpatch-agent.jar   every patch below that the release seen declares\n")
            .append("  -D").append(SWITCH_PROPERTY).append("=P7,S2                 turns those patches off at start\n")
            .append("  -D").append(SWITCH_PROPERTY).append("=all                   every patch off (stock code paths)\n")
            .append("Roll back: remove -javaagent and restart. Refused (one line on stderr, RocketMQ runs stock)")
            .append(" when the\nRocketMQ seen is not one of those releases or its jars are rmqpatch's rewritten ones;")
            .append(" on a later release\nonly the patches it declares are applied (each other one named on a line);")
            .append(" a patch whose classes\ndo not match is left out whole. See docs/patched-broker.md and")
            .append(" docs/releases.md.\n\nPatches (on 4.9.0):\n");
        for (Patch p : Patches.all()) {
            sb.append("  ").append(PatchTargets.label(p)).append(" (").append(String.join(", ", PatchTargets.jars(p)))
                .append("): ").append(p.buys()).append('\n');
        }
        System.out.print(sb);
    }

    static void say(String line) {
        System.err.println(PREFIX + line);
    }
}
