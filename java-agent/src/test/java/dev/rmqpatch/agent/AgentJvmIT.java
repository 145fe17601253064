package dev.rmqpatch.agent;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import javax.tools.JavaCompiler;
import javax.tools.ToolProvider;

import dev.rmqpatch.cluster.Jdk8Home;
import dev.rmqpatch.patches.Patches;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Plain JVMs with {@code -javaagent:rmqpatch-agent.jar} that load stock RocketMQ classes and call one patched method
 * (MessageDecoder.messageProperties2String, P2: stock ends every pair with a separator, the codec not the last one),
 * from the application class loader and from a child URLClassLoader whose parent is the application loader (the
 * shape of Spring Boot's fat-jar loader): the patch runs, the codec is defined by the same loader as RocketMQ; with
 * every patch switched off the result is stock's; RocketMQ 4.9.1 is refused with one line and left stock. On JDK 17,
 * and on JDK 8 where one can be had (the agent's addURL path differs: no modules).
 */
class AgentJvmIT {

    private static final String PATCHED = "PROPERTIES a=1;b=2; BY dev.rmqpatch.codec.properties.MessageProperties";
    private static final String STOCK = "PROPERTIES a=1;b=2; BY org.apache.rocketmq.common.message.MessageDecoder";

    private static Path probeDir;

    /** The probe is compiled here for Java 8 (the test classes are Java 17), so JDK 8 can run it. */
    @BeforeAll
    static void compileProbe() throws IOException {
        probeDir = Files.createTempDirectory("rmqpatch-agent-probe-");
        Path src = probeDir.resolve("AgentProbe.java");
        try (InputStream in = AgentJvmIT.class.getResourceAsStream("/probe/AgentProbe.java")) {
            Files.write(src, in.readAllBytes());
        }
        JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
        int rc = javac.run(null, null, null, "--release", "8", "-d", probeDir.toString(), src.toString());
        assertEquals(0, rc, "the probe compiles for Java 8");
    }

    @AfterAll
    static void clean() throws IOException {
        try (var files = Files.walk(probeDir)) {
            files.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        }
    }

    @Test
    void applicationClassLoader() throws Exception {
        Run run = probe(javaHome17(), List.of(), ShadedAgent.stockLib() + File.separator + "*");
        assertTrue(run.out.contains(PATCHED), run.all());
        assertTrue(run.out.contains("CODEC same-loader"), run.all());
        assertEquals(1, run.agentLines().size(), run.all());
        assertTrue(run.agentLines().get(0).contains("RocketMQ V4_9_0 in the application class loader"), run.all());
        assertTrue(run.agentLines().get(0).contains(Patches.all().size() + " patches"), run.all());
    }

    @Test
    void everyPatchSwitchedOffRunsStock() throws Exception {
        String all = String.join(",", Patches.all().stream().map(p -> p.id()).toList());
        Run run = probe(javaHome17(), List.of("-Drmqpatch.disable=" + all), ShadedAgent.stockLib() + File.separator + "*");
        assertTrue(run.out.contains(STOCK), run.all());
    }

    @Test
    void childLoaderAsInAFatJar() throws Exception {
        Run run = probe(javaHome17(), List.of(), null, "--child", ShadedAgent.stockLib().toString());
        assertTrue(run.out.contains(PATCHED), run.all());
        assertTrue(run.out.contains("CODEC same-loader"), "the codec is defined by the child, not the application loader: "
            + run.all());
        assertEquals(1, run.agentLines().size(), run.all());
        assertTrue(run.agentLines().get(0).contains("RocketMQ V4_9_0 in class loader java.net.URLClassLoader"), run.all());
    }

    @Test
    void rocketmq491IsRefusedWithOneLine() throws Exception {
        List<String> args = new ArrayList<>(List.of("--child", ShadedAgent.rocketmq491().toString()));
        ShadedAgent.thirdParty(ShadedAgent.stockLib()).forEach(p -> args.add(p.toString()));
        Run run = probe(javaHome17(), List.of(), null, args.toArray(new String[0]));
        assertEquals(1, run.agentLines().size(), run.all());
        assertTrue(run.agentLines().get(0).contains("RocketMQ V4_9_1 is not a release the patches declare themselves for"), run.all());
        assertTrue(run.agentLines().get(0).contains("no patch applied"), run.all());
        assertTrue(run.out.contains("CODEC absent"), run.all());
        assertTrue(run.out.contains("PROPERTIES "), "and the JVM runs on: " + run.all());
    }

    /** JDK 8, where most 4.9.0 brokers run: both loaders (checked in CI; skipped, saying so, where no JDK 8 is had). */
    @Test
    void onJdk8() throws Exception {
        Path jdk8 = Jdk8Home.forTests();
        if (jdk8 == null) {
            System.out.println("[AgentJvmIT] no JDK 8 here (" + Jdk8Home.failure() + "): JDK 8 runs skipped");
            return;
        }
        Run app = probe(jdk8, List.of(), ShadedAgent.stockLib() + File.separator + "*");
        assertTrue(app.out.contains(PATCHED) && app.out.contains("CODEC same-loader"), app.all());
        Run child = probe(jdk8, List.of(), null, "--child", ShadedAgent.stockLib().toString());
        assertTrue(child.out.contains(PATCHED) && child.out.contains("CODEC same-loader"), child.all());
        assertEquals(1, child.agentLines().size(), child.all());
    }

    @Test
    void helpAndWrongArguments() throws Exception {
        String java = javaHome17().resolve("bin/java").toString();
        Process help = new ProcessBuilder(java, "-jar", ShadedAgent.jar().toString(), "--help").redirectErrorStream(true).start();
        String text = new String(help.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertEquals(0, help.waitFor(), text);
        assertTrue(text.contains("-javaagent:") && text.contains("P1 header-decode (rocketmq-remoting)"), text);
        Process wrong = new ProcessBuilder(java, "-jar", ShadedAgent.jar().toString(), "--bogus").redirectErrorStream(true).start();
        String err = new String(wrong.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertEquals(2, wrong.waitFor(), err);
        assertTrue(err.contains("unknown argument '--bogus'"), err);

        Run withOption = probeWithOptions(javaHome17(), List.of(), "=verbose", ShadedAgent.stockLib() + File.separator + "*");
        assertTrue(withOption.out.contains(STOCK), withOption.all());
        assertEquals(1, withOption.agentLines().size(), withOption.all());
        assertTrue(withOption.agentLines().get(0).contains("takes no options (got 'verbose'"), withOption.all());
    }

    private static Path javaHome17() {
        return Path.of(System.getProperty("java.home"));
    }

    private record Run(String out, String err) {
        List<String> agentLines() {
            return err.lines().filter(l -> l.startsWith(Agent.PREFIX)).toList();
        }

        String all() {
            return "stdout:\n" + out + "\nstderr:\n" + err;
        }
    }

    /** The probe on {@code javaHome}'s java with the agent; the class path is the probe's folder and {@code classPath}. */
    private static Run probe(Path javaHome, List<String> flags, String classPath, String... args) throws Exception {
        return probeWithOptions(javaHome, flags, "", classPath, args);
    }

    /** As above, with {@code agentOptions} appended to the -javaagent flag ("=..."). */
    private static Run probeWithOptions(Path javaHome, List<String> flags, String agentOptions, String classPath,
                                        String... args)
        throws Exception {
        List<String> cmd = new ArrayList<>(List.of(javaHome.resolve("bin/java").toString(),
            "-javaagent:" + ShadedAgent.jar() + agentOptions));
        cmd.addAll(flags);
        cmd.addAll(List.of("-cp", probeDir + (classPath == null ? "" : File.pathSeparator + classPath), "AgentProbe"));
        cmd.addAll(List.of(args));
        Path out = probeDir.resolve("out.txt");
        Path err = probeDir.resolve("err.txt");
        Process p = new ProcessBuilder(cmd).redirectOutput(out.toFile()).redirectError(err.toFile()).start();
        boolean done = p.waitFor(60, TimeUnit.SECONDS);
        if (!done) {
            p.destroyForcibly().waitFor();
        }
        Run run = new Run(Files.readString(out, StandardCharsets.UTF_8), Files.readString(err, StandardCharsets.UTF_8));
        assertTrue(done && p.exitValue() == 0, String.join(" ", cmd) + " failed:\n" + run.all());
        return run;
    }
}
