package dev.rmqpatch.bench.protocol;

/**
 * Where one RocketMQ class of an agent JVM came from ({@code GET /status}): so that a client comparison can show that
 * each client's JVM ran the classes it claims (the patched distribution's jars, or the stock ones the Java agent
 * rewrote as they loaded).
 */
public final class LoadedClass {
    public String name;
    /** The class's code source (the jar it was loaded from); null when the class is not there. */
    public String jar;
    /** That jar's RocketMQ-Patches manifest attribute (the patches rmqpatch's patcher wrote into it); null for a stock jar. */
    public String jarPatches;
    /** Methods rmqpatch added to the class as loaded (bridges named rmqpatch$...): more than 0 when it runs patched, by jar or by agent. */
    public int rmqpatchMethods;
}
