package dev.rmqpatch.bench.coordinator;

import dev.rmqpatch.cluster.ManagedProcess;
import java.util.List;

/**
 * Watches what a run depends on besides the agents' answers: the local processes (broker, name server, sink) and the
 * local agent JVMs. Checked every second; the first one found dead ends the run with its description.
 */
final class RunWatch {
    private final List<ManagedProcess> watched;
    private final AgentGroup group;

    RunWatch(List<ManagedProcess> watched, AgentGroup group) {
        this.watched = List.copyOf(watched);
        this.group = group;
    }

    void check() throws Coordinator.Abort {
        for (ManagedProcess p : watched) {
            if (!p.isAlive()) {
                throw new Coordinator.Abort(p.describeState());
            }
        }
        String death = group.deathNotice();
        if (death != null) {
            throw new Coordinator.Abort(death);
        }
    }
}
