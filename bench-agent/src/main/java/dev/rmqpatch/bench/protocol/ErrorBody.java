package dev.rmqpatch.bench.protocol;

/** Body of every non-200 answer of an agent, so the coordinator can show the cause instead of a status code. */
public final class ErrorBody {
    public String error;

    public ErrorBody() {
    }

    public ErrorBody(String error) {
        this.error = error;
    }
}
