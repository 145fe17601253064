package dev.rmqpatch.agent;

import java.io.IOException;
import java.io.InputStream;
import java.lang.instrument.ClassFileTransformer;
import java.security.ProtectionDomain;
import java.util.Arrays;
import java.util.Map;
import java.util.Set;
import java.util.WeakHashMap;

import dev.rmqpatch.patches.transform.ClassBytes;

/**
 * Rewrites RocketMQ's target classes as they are defined, whatever loader defines them. The first target class a
 * loader defines makes that loader's {@link PatchPlan} (from the class files the loader sees) and, when the plan
 * patches, gives the loader the codec ({@link CodecAccess}); every later target class of that loader gets the plan's
 * bytes. Whatever goes wrong leaves the class as it came (stock) and says so on stderr: class loading never fails
 * because of the agent.
 */
final class PatchTransformer implements ClassFileTransformer {

    private final Set<String> targets = PatchPlan.targetClasses();
    private final CodecAccess codec;
    /** Per defining loader: its plan, or null once refused (weak: a loader that goes away takes its plan along). */
    private final Map<ClassLoader, LoaderState> loaders = new WeakHashMap<ClassLoader, LoaderState>();
    /** Set while a plan is made: classes loaded by the agent's own work are never targets, and are skipped at once. */
    private final ThreadLocal<Boolean> busy = new ThreadLocal<Boolean>();
    private boolean bootstrapReported;

    PatchTransformer(CodecAccess codec) {
        this.codec = codec;
    }

    /** A loader's decision; {@code plan} null when refused. */
    private static final class LoaderState {
        final PatchPlan plan;

        LoaderState(PatchPlan plan) {
            this.plan = plan;
        }
    }

    @Override
    public byte[] transform(ClassLoader loader, String className, Class<?> classBeingRedefined,
                            ProtectionDomain domain, byte[] classfileBuffer) {
        if (className == null || classBeingRedefined != null || !targets.contains(className) || busy.get() != null) {
            return null;
        }
        busy.set(Boolean.TRUE);
        try {
            return patch(loader, className, domain, classfileBuffer);
        } catch (Throwable t) {
            Agent.say(className.replace('/', '.') + " left stock: the agent failed on it: " + t);
            return null;
        } finally {
            busy.remove();
        }
    }

    private synchronized byte[] patch(final ClassLoader loader, final String className, ProtectionDomain domain,
                                      final byte[] bytes) throws IOException {
        if (loader == null) {
            if (!bootstrapReported) {
                bootstrapReported = true;
                Agent.say("RocketMQ classes on the boot class path (" + className.replace('/', '.') + "): left stock,"
                    + " the agent patches classes of ordinary class loaders only");
            }
            return null;
        }
        LoaderState state = loaders.get(loader);
        if (state == null) {
            try {
                state = decide(loader, className, bytes, where(domain));
            } catch (Throwable t) {
                Agent.say("the agent failed on the RocketMQ classes of " + describe(loader) + " (" + t
                    + "): no patch applied, they run stock");
                state = new LoaderState(null);
            }
            loaders.put(loader, state);
        }
        if (state.plan == null) {
            return null;
        }
        byte[] out = state.plan.patched().get(className);
        if (out == null) {
            return null;
        }
        if (!Arrays.equals(bytes, state.plan.stock().get(className))) {
            Agent.say(className.replace('/', '.') + " left stock: its class file differs from the one the agent planned"
                + " with (another agent or loader changed it); patches " + state.plan.appliedLabels()
                + " may be only partly applied in " + describe(loader));
            return null;
        }
        return out;
    }

    private LoaderState decide(final ClassLoader loader, final String first, final byte[] firstBytes, String where)
        throws IOException {
        PatchPlan plan = PatchPlan.of(new PatchPlan.ClassFiles() {
            @Override
            public byte[] read(String internalName) throws IOException {
                return internalName.equals(first) ? firstBytes : resource(loader, internalName + ".class");
            }
        });
        String who = describe(loader) + (where == null ? "" : " (" + where + ")");
        if (plan.refusal() != null) {
            Agent.say(plan.refusal() + ", seen by " + who + ": no patch applied, its RocketMQ classes run stock");
            return new LoaderState(null);
        }
        for (Map.Entry<String, String> d : plan.notForRelease().entrySet()) {
            Agent.say(d.getKey() + " not applied on RocketMQ " + plan.version() + ": " + d.getValue());
        }
        for (Map.Entry<String, String> d : plan.dropped().entrySet()) {
            Agent.say(d.getKey() + " not applied (its classes left without it): " + d.getValue());
        }
        if (plan.patched().isEmpty()) {
            Agent.say("no patch fits the RocketMQ classes of " + who + ": they run stock");
            return new LoaderState(null);
        }
        String why = codec.makeVisible(loader, plan.appliedLabels());
        if (why != null) {
            Agent.say(why + ": no patch applied to " + who + ", its RocketMQ classes run stock");
            return new LoaderState(null);
        }
        // The one line an application team reads to see what runs in its JVM: the patches by label, and the switch.
        String off = System.getProperty(Agent.SWITCH_PROPERTY);
        Agent.say("RocketMQ " + plan.version() + " in " + who + ": " + plan.appliedLabels().size() + " patches on "
            + plan.patched().size() + " classes as they load " + plan.appliedLabels()
            + (off == null || off.trim().isEmpty() ? " (-D" + Agent.SWITCH_PROPERTY + "=ID turns one off, =all every one)"
                : " (switched off by -D" + Agent.SWITCH_PROPERTY + "=" + off.trim() + ")")
            + (plan.dropped().isEmpty() ? "" : "; not applied: " + plan.dropped().keySet()));
        return new LoaderState(plan);
    }

    private static String where(ProtectionDomain domain) {
        if (domain == null || domain.getCodeSource() == null || domain.getCodeSource().getLocation() == null) {
            return null;
        }
        return domain.getCodeSource().getLocation().toString();
    }

    static String describe(ClassLoader loader) {
        return loader == ClassLoader.getSystemClassLoader() ? "the application class loader"
            : "class loader " + loader.getClass().getName() + "@"
                + Integer.toHexString(System.identityHashCode(loader));
    }

    private static byte[] resource(ClassLoader loader, String name) throws IOException {
        InputStream in = loader.getResourceAsStream(name);
        if (in == null) {
            return null;
        }
        return ClassBytes.readFully(in);
    }
}
