package dev.rmqpatch.bench.protocol;

/** {@code POST /consumers}: suspend or resume this agent's consumers (a backlog run builds the backlog suspended). */
public final class ConsumersRequest {
    public boolean paused;

    public ConsumersRequest() {
    }

    public ConsumersRequest(boolean paused) {
        this.paused = paused;
    }
}
