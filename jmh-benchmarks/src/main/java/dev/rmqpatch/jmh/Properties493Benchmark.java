package dev.rmqpatch.jmh;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import dev.rmqpatch.codec.properties.MessageProperties493;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * P2's 4.9.3+ variant: stock {@code MessageDecoder} of a later release (param {@code release}, its rocketmq-common jar
 * from the local Maven repository, {@code -Dmaven.repo.local} or {@code ~/.m2/repository}) against
 * {@code MessageProperties493}, on {@link Inputs}' properties in that release's format (no trailing separator).
 * {@code parse}: {@code string2messageProperties}; {@code encode}: {@code messageProperties2String} of the broker's
 * map. Stock is called through a {@code static final} method handle (constant to the JIT), loaded once per fork: each
 * release needs its own fork (JMH forks per parameter value; not with {@code -f 0}).
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 5, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 2, jvmArgsAppend = {"-Xms1g", "-Xmx1g"})
@State(Scope.Thread)
public class Properties493Benchmark {

    static final String RELEASE_PROPERTY = "rmqpatch.jmh.properties.release";

    @Param({"4.9.3"})
    public String release;

    /** Inputs' properties as that release's client writes them: without the last separator. */
    String properties;

    @Setup
    public void setup(Inputs in) {
        System.setProperty(RELEASE_PROPERTY, release);
        // A 4.9.3+ producer writes the same entries in the same order, without 4.9.0's last separator.
        properties = in.properties.endsWith("\u0002") ? in.properties.substring(0, in.properties.length() - 1)
            : in.properties;
        if (!Release.VERSION.equals(release)) {
            throw new IllegalStateException("stock " + Release.VERSION + " loaded in this JVM, not " + release);
        }
    }

    @Benchmark
    @SuppressWarnings("unchecked")
    public Map<String, String> parseStock() throws Throwable {
        return (Map<String, String>) Release.DECODE.invokeExact(properties);
    }

    @Benchmark
    public Map<String, String> parsePatched() {
        return MessageProperties493.decode(properties);
    }

    @Benchmark
    public String encodeStock(Inputs in) throws Throwable {
        return (String) Release.ENCODE.invokeExact(in.brokerProperties);
    }

    @Benchmark
    public String encodePatched(Inputs in) {
        return MessageProperties493.encode(in.brokerProperties);
    }

    /** The release's stock methods, loaded the first time a benchmark calls them. */
    static final class Release {
        static final String VERSION = System.getProperty(RELEASE_PROPERTY, "4.9.3");
        static final MethodHandle ENCODE;
        static final MethodHandle DECODE;

        static {
            try {
                Path repo = Paths.get(System.getProperty("maven.repo.local",
                    System.getProperty("user.home") + "/.m2/repository"));
                Path jar = repo.resolve("org/apache/rocketmq/rocketmq-common/" + VERSION + "/rocketmq-common-" + VERSION
                    + ".jar");
                if (!Files.isRegularFile(jar)) {
                    throw new IllegalStateException("no " + jar);
                }
                // Parent: the bootstrap loader (the JDK's classes; Java 8 class files, so not the platform loader), so
                // the class path's 4.9.0 MessageDecoder cannot answer instead.
                ClassLoader loader = new URLClassLoader(new URL[] {jar.toUri().toURL()}, null);
                Class<?> decoder = Class.forName("org.apache.rocketmq.common.message.MessageDecoder", true, loader);
                MethodHandles.Lookup lookup = MethodHandles.publicLookup();
                ENCODE = lookup.findStatic(decoder, "messageProperties2String",
                    MethodType.methodType(String.class, Map.class));
                DECODE = lookup.findStatic(decoder, "string2messageProperties",
                    MethodType.methodType(Map.class, String.class));
            } catch (ReflectiveOperationException | java.io.IOException e) {
                throw new ExceptionInInitializerError(e);
            }
        }

        private Release() {
        }
    }
}
