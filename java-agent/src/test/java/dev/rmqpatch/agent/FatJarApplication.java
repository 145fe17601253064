package dev.rmqpatch.agent;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Enumeration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.jar.Attributes;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;
import java.util.jar.JarOutputStream;
import java.util.jar.Manifest;
import java.util.stream.Stream;
import java.util.zip.CRC32;
import java.util.zip.ZipEntry;

import javax.tools.JavaCompiler;
import javax.tools.ToolProvider;

import dev.rmqpatch.patches.PatchTargets;
import dev.rmqpatch.patches.Patches;
import dev.rmqpatch.patches.transform.MethodEdit;

/**
 * An application team's deployment, end to end: a Spring Boot executable jar (Spring Boot's own launcher from
 * spring-boot-loader; the stock rocketmq-client 4.9.0 and its dependencies as nested jars under BOOT-INF/lib/, stored,
 * loaded by Spring Boot's LaunchedClassLoader) whose application ({@code fatjar/FatJarApp.java}) sends messages with a
 * stock DefaultMQProducer and consumes them with a push consumer. Run with only {@code -javaagent:rmqpatch-agent.jar}
 * added: the agent's one line names that loader and lists the patches of every class the jar holds, a patched method
 * answers as patched inside the nested-jar loader, and every message sent is consumed. Run again with
 * {@code -Drmqpatch.disable=all}: the same jar runs stock's code paths and still consumes everything. Used by
 * AgentBrokerIT against its broker (no cluster of its own).
 */
final class FatJarApplication {

    static final String LAUNCHED_LOADER = "org.springframework.boot.loader.launch.LaunchedClassLoader";
    private static final int MESSAGES = 40;

    private FatJarApplication() {
    }

    /** Builds the jar under {@code dir} and runs it twice against the name server; asserts what each run printed. */
    static void check(String namesrvAddr, Path dir) throws Exception {
        Path appLib = ShadedAgent.path("rmqpatch.fatjar.lib");
        Path jar = build(dir.resolve("fatjar"), ShadedAgent.path("rmqpatch.spring.boot.loader"), appLib);

        Run on = run(jar, List.of(), namesrvAddr, "fatjar-agent-on", dir);
        String expected = expectedLabels(appLib).toString();
        assertEquals(1, on.agentLines().size(), on.all());
        String line = on.agentLines().get(0);
        assertTrue(line.contains("RocketMQ V4_9_0 in class loader " + LAUNCHED_LOADER + "@"), "the agent patched the nested"
            + " jars' loader: " + on.all());
        assertTrue(line.contains(" " + expected + " "), "the agent lists every patch of the jar's RocketMQ classes, "
            + expected + ": " + on.all());
        assertFalse(line.contains("not applied"), on.all());
        assertTrue(on.out.contains("APP-LOADER " + LAUNCHED_LOADER), on.all());
        assertTrue(on.out.contains("ROCKETMQ-FROM ") && on.out.contains("BOOT-INF/lib/rocketmq-common-"),
            "RocketMQ comes from a nested jar: " + on.all());
        assertTrue(on.out.contains("PROPERTIES a=1;b=2; BY dev.rmqpatch.codec.properties.MessageProperties\n"), "P2 runs in the nested-jar loader: " + on.all());
        assertTrue(on.out.contains("CODEC same-loader"), on.all());
        assertTrue(on.out.contains("CONSUMED " + MESSAGES + " of " + MESSAGES), on.all());

        Run off = run(jar, List.of("-Drmqpatch.disable=all"), namesrvAddr, "fatjar-all-off", dir);
        assertEquals(1, off.agentLines().size(), off.all());
        assertTrue(off.agentLines().get(0).contains("(switched off by -Drmqpatch.disable=all)"), off.all());
        assertTrue(off.out.contains("PROPERTIES a=1;b=2; BY org.apache.rocketmq.common.message.MessageDecoder\n"), "every patch off: stock's result: " + off.all());
        assertTrue(off.out.contains("CONSUMED " + MESSAGES + " of " + MESSAGES), off.all());
    }

    /**
     * The labels, in build order, of the patches that edit a class the application's jars hold: what the agent must
     * apply in that JVM (derived from the patch classes and the jars, so it holds for any set of patches).
     */
    static List<String> expectedLabels(Path appLib) {
        Function<String, byte[]> classes = ShadedAgent.classFiles(appLib);
        List<String> labels = new ArrayList<>();
        for (var p : Patches.all()) {
            for (MethodEdit e : p.edits()) {
                if (classes.apply(e.target().owner) != null) {
                    labels.add(PatchTargets.label(p));
                    break;
                }
            }
        }
        assertFalse(labels.isEmpty(), "no patch targets a class of " + appLib);
        return labels;
    }

    /**
     * Spring Boot's executable-jar layout, without its build plugin: the launcher's classes at the root, the
     * application's under BOOT-INF/classes/, every library stored (not deflated) under BOOT-INF/lib/ in the order of
     * BOOT-INF/classpath.idx, and the manifest naming JarLauncher and the application's main class.
     */
    static Path build(Path dir, Path loaderJar, Path appLib) throws Exception {
        Path classes = dir.resolve("classes");
        Files.createDirectories(classes);
        Path src = dir.resolve("FatJarApp.java");
        try (InputStream in = FatJarApplication.class.getResourceAsStream("/fatjar/FatJarApp.java")) {
            Files.write(src, in.readAllBytes());
        }
        List<File> libs = ShadedAgent.jars(appLib);
        assertTrue(libs.stream().anyMatch(f -> f.getName().startsWith("rocketmq-client-")), "the application's libraries: " + libs);
        StringBuilder cp = new StringBuilder();
        libs.forEach(f -> cp.append(cp.length() == 0 ? "" : File.pathSeparator).append(f));
        JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
        int rc = javac.run(null, null, null, "--release", "17", "-encoding", "UTF-8", "-cp", cp.toString(),
            "-d", classes.toString(), src.toString());
        assertEquals(0, rc, "the application compiles");

        Manifest mf = new Manifest();
        Attributes a = mf.getMainAttributes();
        a.put(Attributes.Name.MANIFEST_VERSION, "1.0");
        a.put(Attributes.Name.MAIN_CLASS, "org.springframework.boot.loader.launch.JarLauncher");
        a.putValue("Start-Class", "app.FatJarApp");
        a.putValue("Spring-Boot-Classes", "BOOT-INF/classes/");
        a.putValue("Spring-Boot-Lib", "BOOT-INF/lib/");
        a.putValue("Spring-Boot-Classpath-Index", "BOOT-INF/classpath.idx");
        // What a team running the 4.9.0 client on JDK 17 puts in its jar (netty 4.0 reaches into java.nio).
        a.putValue("Add-Opens", "java.base/java.nio java.base/sun.nio.ch java.base/jdk.internal.ref");
        Path jar = dir.resolve("app.jar");
        try (OutputStream out = Files.newOutputStream(jar); JarOutputStream jos = new JarOutputStream(out, mf)) {
            try (JarFile loader = new JarFile(loaderJar.toFile())) {
                for (Enumeration<JarEntry> en = loader.entries(); en.hasMoreElements(); ) {
                    JarEntry e = en.nextElement();
                    // Everything but its manifest: the classes, and META-INF/services (the nested-jar file system).
                    if (e.getName().equalsIgnoreCase(JarFile.MANIFEST_NAME)) {
                        continue;
                    }
                    jos.putNextEntry(new JarEntry(e.getName()));
                    try (InputStream in = loader.getInputStream(e)) {
                        in.transferTo(jos);
                    }
                    jos.closeEntry();
                }
            }
            jos.putNextEntry(new JarEntry("BOOT-INF/"));
            jos.closeEntry();
            jos.putNextEntry(new JarEntry("BOOT-INF/classes/"));
            jos.closeEntry();
            List<Path> classFiles;
            try (Stream<Path> s = Files.walk(classes)) {
                classFiles = s.filter(Files::isRegularFile).sorted().toList();
            }
            for (Path c : classFiles) {
                jos.putNextEntry(new JarEntry("BOOT-INF/classes/" + classes.relativize(c).toString().replace(File.separatorChar, '/')));
                jos.write(Files.readAllBytes(c));
                jos.closeEntry();
            }
            jos.putNextEntry(new JarEntry("BOOT-INF/lib/"));
            jos.closeEntry();
            StringBuilder index = new StringBuilder();
            for (File lib : libs) {
                byte[] bytes = Files.readAllBytes(lib.toPath());
                JarEntry e = new JarEntry("BOOT-INF/lib/" + lib.getName());
                e.setMethod(ZipEntry.STORED);
                e.setSize(bytes.length);
                e.setCompressedSize(bytes.length);
                CRC32 crc = new CRC32();
                crc.update(bytes);
                e.setCrc(crc.getValue());
                jos.putNextEntry(e);
                jos.write(bytes);
                jos.closeEntry();
                index.append("- \"BOOT-INF/lib/").append(lib.getName()).append("\"\n");
            }
            jos.putNextEntry(new JarEntry("BOOT-INF/classpath.idx"));
            jos.write(index.toString().getBytes(StandardCharsets.UTF_8));
            jos.closeEntry();
        }
        return jar;
    }

    record Run(String out, String err) {
        List<String> agentLines() {
            return err.lines().filter(l -> l.startsWith(Agent.PREFIX)).toList();
        }

        String all() {
            return "stdout:\n" + out + "\nstderr:\n" + err;
        }
    }

    /** {@code java -javaagent:rmqpatch-agent.jar FLAGS -jar app.jar ...} on the tests' JDK 17; killed after 120 s. */
    static Run run(Path jar, List<String> flags, String namesrvAddr, String topic, Path dir) throws Exception {
        List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
            "-javaagent:" + ShadedAgent.jar()));
        cmd.addAll(flags);
        cmd.addAll(List.of("-Xmx256m", "-jar", jar.toString(), namesrvAddr, topic, Integer.toString(MESSAGES),
            dir.resolve("client-logs-" + topic).toString()));
        Path out = dir.resolve(topic + ".out");
        Path err = dir.resolve(topic + ".err");
        long t0 = System.nanoTime();
        Process p = new ProcessBuilder(cmd).redirectOutput(out.toFile()).redirectError(err.toFile()).start();
        boolean done;
        try {
            done = p.waitFor(120, TimeUnit.SECONDS);
        } finally {
            if (p.isAlive()) {
                p.destroyForcibly().waitFor();
            }
        }
        Run run = new Run(read(out), read(err));
        System.out.printf("[FatJarApplication] %s: %.1f s%n", topic, (System.nanoTime() - t0) / 1e9);
        run.agentLines().forEach(l -> System.out.println("[FatJarApplication]   " + l));
        run.out.lines().filter(l -> !l.startsWith("SENT")).forEach(l -> System.out.println("[FatJarApplication]   " + l));
        assertTrue(done && p.exitValue() == 0, String.join(" ", cmd) + (done ? " exited " + p.exitValue() : " timed out")
            + ":\n" + run.all());
        return run;
    }

    private static String read(Path f) throws IOException {
        return Files.exists(f) ? Files.readString(f, StandardCharsets.UTF_8) : "";
    }
}
