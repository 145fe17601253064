package dev.rmqpatch.agent;

import java.io.File;
import java.io.IOException;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Stream;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;

/**
 * The built agent jar (target/rmqpatch-agent.jar, shaded, ASM relocated) in a loader of its own, and its
 * {@link PatchPlan} called through reflection: what the tests check is the artifact an operator gets, not the
 * module's classes. Also the paths the build hands the tests.
 */
final class ShadedAgent implements AutoCloseable {

    /** What a plan decided, copied out of the agent's loader. */
    record Plan(String version, String refusal, Map<String, byte[]> patched, Map<String, String> dropped,
                List<String> appliedLabels, Map<String, String> notForRelease) {
    }

    private final URLClassLoader loader;
    private final Class<?> planClass;
    private final Class<?> filesClass;

    ShadedAgent() throws Exception {
        loader = new URLClassLoader(new URL[] {jar().toUri().toURL()}, ClassLoader.getPlatformClassLoader());
        planClass = loader.loadClass("dev.rmqpatch.agent.PatchPlan");
        filesClass = loader.loadClass("dev.rmqpatch.agent.PatchPlan$ClassFiles");
    }

    @SuppressWarnings("unchecked")
    Plan plan(Function<String, byte[]> files) throws Exception {
        Object source = Proxy.newProxyInstance(loader, new Class<?>[] {filesClass}, (proxy, m, args) -> switch (m.getName()) {
            case "read" -> files.apply((String) args[0]);
            case "hashCode" -> System.identityHashCode(proxy);
            case "equals" -> proxy == args[0];
            default -> "class files";
        });
        Object plan;
        try {
            plan = planClass.getMethod("of", filesClass).invoke(null, source);
        } catch (InvocationTargetException e) {
            throw new IllegalStateException("PatchPlan.of failed", e.getCause());
        }
        return new Plan((String) call(plan, "version"), (String) call(plan, "refusal"),
            (Map<String, byte[]>) call(plan, "patched"), (Map<String, String>) call(plan, "dropped"),
            (List<String>) call(plan, "appliedLabels"), (Map<String, String>) call(plan, "notForRelease"));
    }

    private Object call(Object plan, String name) throws Exception {
        Method m = planClass.getMethod(name);
        return m.invoke(plan);
    }

    @Override
    public void close() throws IOException {
        loader.close();
    }

    /** Class files by internal name from every jar of a folder (the first jar that has one wins, as a class path). */
    static Function<String, byte[]> classFiles(Path libDir) {
        Map<String, File> jarOf = new java.util.HashMap<>();
        for (File f : jars(libDir)) {
            try (ZipFile z = new ZipFile(f)) {
                z.stream().map(ZipEntry::getName).filter(n -> n.endsWith(".class"))
                    .forEach(n -> jarOf.putIfAbsent(n.substring(0, n.length() - ".class".length()), f));
            } catch (IOException ex) {
                throw new IllegalStateException(f + ": " + ex, ex);
            }
        }
        return name -> {
            File f = jarOf.get(name);
            if (f == null) {
                return null;
            }
            try (ZipFile z = new ZipFile(f)) {
                return z.getInputStream(z.getEntry(name + ".class")).readAllBytes();
            } catch (IOException ex) {
                throw new IllegalStateException(f + ": " + ex, ex);
            }
        };
    }

    static List<File> jars(Path dir) {
        try (Stream<Path> s = Files.list(dir)) {
            return s.filter(p -> p.toString().endsWith(".jar")).sorted().map(Path::toFile).toList();
        } catch (IOException e) {
            throw new IllegalStateException("cannot list " + dir + " (build broker-patches first: mvn -pl java-agent -am)", e);
        }
    }

    static Path jar() {
        return path("rmqpatch.agent.jar");
    }

    static Path stockLib() {
        return path("rmqpatch.dist.stock").resolve("lib");
    }

    static Path patchedLib() {
        return path("rmqpatch.dist.patched").resolve("lib");
    }

    /** Stock 4.9.7's lib/ (broker-patches' rocketmq-4.9.7-stock, Maven Central's jars). */
    /** A later release's stock lib/ ("4.9.7": the build's rocketmq-4.9.7-stock/lib). */
    static Path stockLib(String release) {
        return path("rmqpatch.dist.stock" + release.replace(".", "")).resolve("lib");
    }

    /** The folder with the codec jar the patched distribution ships (patch-lib's default). */
    static Path codecLib() {
        return path("rmqpatch.codec.lib");
    }

    static Path rocketmq491() {
        return path("rmqpatch.rocketmq491.lib");
    }

    static Path path(String property) {
        String p = System.getProperty(property);
        if (p == null) {
            throw new IllegalStateException("system property " + property + " not set (run through mvn verify)");
        }
        return Path.of(p);
    }

    /** Every jar of {@code lib} whose name does not start with "rocketmq-": the third-party jars RocketMQ runs on. */
    static List<Path> thirdParty(Path lib) {
        List<Path> out = new ArrayList<>();
        for (File f : jars(lib)) {
            if (!f.getName().startsWith("rocketmq-")) {
                out.add(f.toPath());
            }
        }
        return out;
    }
}
