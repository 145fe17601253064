package dev.rmqpatch.cluster;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * Every process this JVM started (agents, sinks, name servers, brokers). A shutdown hook, installed with the first
 * child, stops them all on Ctrl-C, SIGTERM or exit, so the tool never leaves processes behind except on SIGKILL
 * (and locally started agents watch their parent for that case).
 */
public final class ChildProcesses {
    private static final Set<ManagedProcess> LIVE = new LinkedHashSet<>();
    private static boolean hookInstalled;
    private static boolean shuttingDown;

    private ChildProcesses() {
    }

    static synchronized void register(ManagedProcess process) {
        if (!hookInstalled) {
            Runtime.getRuntime().addShutdownHook(new Thread(ChildProcesses::stopAllOnExit, "stop-child-processes"));
            hookInstalled = true;
        }
        LIVE.add(process);
    }

    static synchronized void unregister(ManagedProcess process) {
        LIVE.remove(process);
    }

    static synchronized void checkNotShuttingDown(String name) {
        if (shuttingDown) {
            throw new IllegalStateException("not starting " + name + ": shutting down");
        }
    }

    public static synchronized List<ManagedProcess> live() {
        return new ArrayList<>(LIVE);
    }

    private static void stopAllOnExit() {
        List<ManagedProcess> all;
        synchronized (ChildProcesses.class) {
            shuttingDown = true;
            all = new ArrayList<>(LIVE);
        }
        if (!all.isEmpty()) {
            System.err.println("stopping " + all.size() + " child process(es) ...");
        }
        stopAll(all, Duration.ofSeconds(10));
    }

    /** Signals all first, then waits for each, so stopping N processes takes one grace period, not N. */
    public static void stopAll(List<ManagedProcess> processes, Duration grace) {
        List<ManagedProcess> reversed = new ArrayList<>(processes);
        java.util.Collections.reverse(reversed);
        for (ManagedProcess p : reversed) {
            p.signalStop();
        }
        for (ManagedProcess p : reversed) {
            p.stop(grace);
        }
    }
}
