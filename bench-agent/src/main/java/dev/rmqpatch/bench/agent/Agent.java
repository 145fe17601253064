package dev.rmqpatch.bench.agent;

import dev.rmqpatch.bench.lang.Jdk8;
import dev.rmqpatch.bench.protocol.AgentResult;
import dev.rmqpatch.bench.protocol.AgentStatus;
import dev.rmqpatch.bench.protocol.PrepareRequest;
import dev.rmqpatch.bench.protocol.ProgressReport;
import dev.rmqpatch.bench.protocol.StartRequest;
import dev.rmqpatch.bench.protocol.TargetRequest;
import java.net.InetAddress;
import java.net.UnknownHostException;

/**
 * One agent's life cycle: IDLE, then per run PREPARED, WARMUP, MEASURING and back to IDLE on stop; a run with consumers
 * goes from stop to DRAINING (producers stopped, consumers still receiving) and back to IDLE on {@code /consumers/stop}.
 * Requests that do not fit the current state are refused with a message naming both, so a confused coordinator fails
 * loudly.
 */
public final class Agent {
    /** Agent states, in the order a run goes through them. */
    public enum State { IDLE, PREPARED, WARMUP, MEASURING, DRAINING, FAILED }

    private final String name;
    private final NamesrvAllowlist allowlist;
    private final String host;
    private final long pid = Jdk8.pid();
    private State state = State.IDLE;
    private String error;
    private LoadLoop load;
    /** Where the RocketMQ classes came from (read at start, before any run loads them by use). */
    private final java.util.List<dev.rmqpatch.bench.protocol.LoadedClass> rocketmqClasses = RocketMqClasses.describe();
    /** The run's push consumers; null in a run without them. */
    private Consumers consumers;

    /** An agent that may load name servers on loopback addresses only. */
    public Agent(String name) {
        this(name, NamesrvAllowlist.of(Jdk8.listOf()));
    }

    public Agent(String name, NamesrvAllowlist allowlist) {
        this.name = name;
        this.allowlist = allowlist;
        this.host = localHost();
    }

    private static String localHost() {
        try {
            return InetAddress.getLocalHost().getHostName();
        } catch (UnknownHostException e) {
            return "localhost";
        }
    }

    public String name() {
        return name;
    }

    java.util.List<dev.rmqpatch.bench.protocol.LoadedClass> rocketmqClasses() {
        return rocketmqClasses;
    }

    public synchronized AgentStatus status() {
        checkCrash();
        AgentStatus s = new AgentStatus();
        s.name = name;
        s.host = host;
        s.pid = pid;
        s.state = state.name();
        s.error = error;
        s.javaVersion = System.getProperty("java.version");
        s.cpus = Runtime.getRuntime().availableProcessors();
        s.wallClockMicros = dev.rmqpatch.bench.delivery.BodyStamp.wallMicros();
        s.rocketmqClasses = rocketmqClasses;
        return s;
    }

    /** A sender thread died, or the wire agent's brokers stopped answering: the run cannot be trusted any more. */
    private void checkCrash() {
        String failure = load == null ? null : load.failure();
        if (failure != null && state != State.FAILED) {
            state = State.FAILED;
            error = failure;
        }
    }

    public synchronized AgentStatus prepare(PrepareRequest request) throws AgentException {
        try {
            allowlist.check(request);
        } catch (NamesrvAllowlist.NotAllowedException e) {
            throw new AgentException(403, name + " refuses to prepare: " + e.getMessage());
        }
        if (state == State.FAILED) {
            // A new run starts clean; the previous failure was already reported.
            reset();
        }
        expect(State.IDLE, "prepare");
        try {
            // Consumers first: they subscribe and rebalance while the producers wait for their routes.
            consumers = Consumers.start(name, request);
            runHasConsumers = request.stampBodies;
            load = LoadLoop.prepare(name, request);
            state = State.PREPARED;
            error = null;
            return status();
        } catch (PrepareException e) {
            if (consumers != null) {
                consumers.abort();
                consumers = null;
            }
            throw new AgentException(400, e.getMessage());
        } catch (IllegalArgumentException e) {
            throw new AgentException(400, name + ": " + e.getMessage());
        }
    }

    public synchronized AgentStatus start(StartRequest request) throws AgentException {
        expect(State.PREPARED, "start");
        load.start(request.delayMs);
        state = State.WARMUP;
        return status();
    }

    public synchronized AgentStatus measure() throws AgentException {
        checkCrash();
        expect(State.WARMUP, "begin measuring");
        load.beginMeasurement();
        if (consumers != null) {
            consumers.beginMeasurement();
            consumers.refreshSubscriptions();
        }
        state = State.MEASURING;
        return status();
    }

    /** Moves the running load to another prepared target; answers with the progress interval that ends here. */
    public synchronized ProgressReport target(TargetRequest request) throws AgentException {
        checkCrash();
        if (state != State.WARMUP && state != State.MEASURING) {
            throw new AgentException(409, name + " cannot switch targets while " + state + (error == null ? "" : " (" + error + ")"));
        }
        ProgressReport report;
        try {
            report = load.switchTarget(request.target, request.ratePerSecond);
        } catch (IllegalArgumentException e) {
            throw new AgentException(400, name + ": " + e.getMessage());
        }
        if (consumers != null) {
            consumers.fill(report);
        }
        report.state = state.name();
        return report;
    }

    public synchronized ProgressReport progress() {
        checkCrash();
        ProgressReport report = load == null || state == State.PREPARED ? new ProgressReport() : load.progress();
        if (load != null) {
            report.ackedSinceStart = load.ackedSinceStart();
        } else if (state == State.DRAINING) {
            report.ackedSinceStart = ackedAtStop;
        }
        if (consumers != null) {
            consumers.fill(report);
        }
        report.state = state.name();
        report.error = error;
        return report;
    }

    public synchronized AgentResult stop() throws AgentException {
        checkCrash();
        if (state == State.FAILED) {
            String cause = error;
            reset();
            throw new AgentException(500, cause);
        }
        if (state != State.WARMUP && state != State.MEASURING) {
            throw new AgentException(409, name + " is " + state + "; there is no load to stop");
        }
        if (consumers != null) {
            consumers.endMeasurement();
            consumers.refreshSubscriptions();
        }
        ackedAtStop = load.ackedSinceStart();
        AgentResult result = load.stop(host, pid);
        result.name = name;
        load = null;
        // Every agent of a run with consumers drains, also one that was dealt none (fewer consumers than agents).
        state = consumers != null || runHasConsumers ? State.DRAINING : State.IDLE;
        return result;
    }

    /** Whether the run has consumers (bodies stamped), even if none of them runs on this agent. */
    private boolean runHasConsumers;

    /** Sends acknowledged until the producers stopped; what DRAINING progress reports compare receipts with. */
    private long ackedAtStop;

    /** Suspends or resumes the consumers (backlog runs). */
    public synchronized AgentStatus consumers(dev.rmqpatch.bench.protocol.ConsumersRequest request) throws AgentException {
        if (consumers == null) {
            throw new AgentException(409, name + " has no consumers in this run (" + state + ")");
        }
        consumers.pause(request.paused);
        return status();
    }

    /** Ends the drain: stops the consumers and reports what they received. */
    public synchronized dev.rmqpatch.bench.protocol.ConsumeResult stopConsumers() throws AgentException {
        checkCrash();
        expect(State.DRAINING, "stop its consumers");
        dev.rmqpatch.bench.protocol.ConsumeResult result = consumers != null ? consumers.stop(name) : Consumers.none(name);
        consumers = null;
        state = State.IDLE;
        return result;
    }

    /** Drops whatever runs, back to IDLE; used on shutdown and when a coordinator gives up on a run. */
    public synchronized void reset() {
        if (load != null) {
            load.abort();
            load = null;
        }
        if (consumers != null) {
            consumers.abort();
            consumers = null;
        }
        state = State.IDLE;
        error = null;
    }

    private void expect(State wanted, String action) throws AgentException {
        if (state != wanted) {
            throw new AgentException(409, name + " cannot " + action + " while " + state + (error == null ? "" : " (" + error + ")"));
        }
    }

    /** A request the agent refuses; the HTTP layer turns it into a status code and a JSON error body. */
    public static final class AgentException extends Exception {
        private final int status;

        public AgentException(int status, String message) {
            super(message);
            this.status = status;
        }

        public int status() {
            return status;
        }
    }
}
