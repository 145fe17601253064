package dev.rmqpatch.bench.efficiency;

import dev.rmqpatch.bench.engine.ClientVariant;
import dev.rmqpatch.bench.protocol.ProgressReport;
import java.util.List;

/**
 * Who loads what in a client comparison's window of client v. Producer side: only v's agents send (to the one cluster,
 * their target 0), the other clients' agents pause; the window's messages are what v's agents had acknowledged.
 * Consumer side: the load agents (stock producers, the same for every client) send to v's topics (their target v), which
 * only v's push consumers subscribe; every client agent's producers stay paused; the window's messages are what v's
 * consumers received.
 */
final class ClientRouting implements WindowRunner.Routing {
    /** In {@link #clientOf}: a load agent (consumer side's producers), not a client's. */
    static final int LOAD = -1;

    private final ClientVariant.Side side;
    private final int[] clientOf;

    /**
     * @param clientOf for each agent, in the group's order: the index of the client it runs, or {@link #LOAD}
     */
    ClientRouting(ClientVariant.Side side, int[] clientOf) {
        this.side = side;
        this.clientOf = clientOf.clone();
    }

    @Override
    public int target(int agent, int variant) {
        if (side == ClientVariant.Side.PRODUCER) {
            return clientOf[agent] == variant ? 0 : WindowRunner.PAUSE;
        }
        return clientOf[agent] == LOAD ? variant : WindowRunner.PAUSE;
    }

    @Override
    public int senders(int variant) {
        int n = 0;
        for (int c : clientOf) {
            if (side == ClientVariant.Side.PRODUCER ? c == variant : c == LOAD) {
                n++;
            }
        }
        return n;
    }

    @Override
    public Long clientMessages(List<ProgressReport> reports, int variant) {
        long n = 0;
        for (int a = 0; a < reports.size(); a++) {
            if (clientOf[a] == variant) {
                n += side == ClientVariant.Side.PRODUCER ? reports.get(a).acked : reports.get(a).consumed;
            }
        }
        return n;
    }
}
