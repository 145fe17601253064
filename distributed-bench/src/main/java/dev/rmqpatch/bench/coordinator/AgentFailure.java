package dev.rmqpatch.bench.coordinator;

/** An agent failed or could not be reached; the message names the agent and the cause. */
public final class AgentFailure extends Exception {
    private final String agent;

    public AgentFailure(String agent, String message, Throwable cause) {
        super(message, cause);
        this.agent = agent;
    }

    public String agent() {
        return agent;
    }
}
