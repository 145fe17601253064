package dev.rmqpatch.patches.build;

import java.io.File;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import java.util.stream.Stream;

/**
 * The stock RocketMQ jars and the codec jar as files, taken from the test class path (Maven puts the "provided"
 * RocketMQ artifacts there). The tests read them as files, as the patcher does; nothing RocketMQ is loaded.
 */
final class TestJars {

    private TestJars() {
    }

    static String rocketmqVersion() {
        return System.getProperty("rmqpatch.rocketmq.version", "4.9.0");
    }

    /** Copies the stock rocketmq-*.jar files of the class path into a fresh folder, as a broker's lib/ would hold them. */
    static Path stockLib(Path into) throws IOException {
        Files.createDirectories(into);
        int n = 0;
        for (String entry : System.getProperty("java.class.path").split(File.pathSeparator)) {
            Path p = Path.of(entry);
            String name = p.getFileName().toString();
            if (name.startsWith("rocketmq-") && name.endsWith("-" + rocketmqVersion() + ".jar")) {
                Files.copy(p, into.resolve(name));
                n++;
            }
        }
        if (n < 5) {
            throw new IllegalStateException("expected the stock rocketmq jars on the test class path, found " + n);
        }
        return into;
    }

    /** The codec jar; in a reactor build the class path may name its classes folder, which is jarred here. */
    static File codecJar(Path scratch) throws IOException {
        for (String entry : System.getProperty("java.class.path").split(File.pathSeparator)) {
            Path p = Path.of(entry);
            if (p.toString().contains("rmqpatch-codec") && p.toString().endsWith(".jar")) {
                return p.toFile();
            }
            if (Files.isDirectory(p) && Files.exists(p.resolve("dev/rmqpatch/codec/hook/RemotingCommandHooks.class"))) {
                return jarOf(p, scratch.resolve("rmqpatch-codec-test.jar")).toFile();
            }
        }
        throw new IllegalStateException("no codec jar on the test class path");
    }

    private static Path jarOf(Path classes, Path jar) throws IOException {
        List<Path> files = new ArrayList<>();
        try (Stream<Path> s = Files.walk(classes)) {
            s.filter(Files::isRegularFile).forEach(files::add);
        }
        try (OutputStream os = Files.newOutputStream(jar); JarOutputStream jos = new JarOutputStream(os)) {
            for (Path f : files) {
                jos.putNextEntry(new JarEntry(classes.relativize(f).toString().replace(File.separatorChar, '/')));
                jos.write(Files.readAllBytes(f));
                jos.closeEntry();
            }
        }
        return jar;
    }
}
