package dev.rmqpatch.patches.build;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.Enumeration;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.objectweb.asm.ClassReader;
import org.objectweb.asm.ClassVisitor;
import org.objectweb.asm.FieldVisitor;
import org.objectweb.asm.MethodVisitor;
import org.objectweb.asm.Opcodes;
import org.objectweb.asm.Type;

/**
 * A patched jar needs no jar its stock version does not need. For each rewritten jar of the patched distribution:
 * the codec classes its rewritten classes refer to, and every codec class those refer to in turn (a static,
 * class-level closure over the codec jar's constant pools: what the JVM may load, link or verify on the way), may
 * refer only to classes of that jar, of the jars its stock POM brings (compile and runtime, transitively, read with
 * {@link StockPoms}), of the codec, or of the JDK. Found by upstream's RemotingCommandTest, RemotingServerTest and
 * TlsTest, which run rocketmq-remoting without rocketmq-common: the encoder's hook loaded the codec's header registry,
 * which names PullMessageRequestHeader. A codec class that may use another jar only when the object in hand comes from
 * it is reached by name (reflection), which this closure does not follow, by design.
 */
class PatchedJarDependenciesIT {

    private static final String CODEC = "dev/rmqpatch/codec/";

    /**
     * Codec classes that the JVM loads only once an object of the named jar is in hand, with the jar (a name prefix):
     * HeaderGroups matches the header's class name before it touches its holder, which refers to the header codecs
     * (RemotingAloneIT checks at run time that a remoting-only application never loads them). Past a gate, the
     * closure is checked against the gate jar's stock POM instead.
     */
    static final Map<String, String> GATED = Map.of("dev/rmqpatch/codec/hook/HeaderGroups$Loaded", "rocketmq-common-");

    @Test
    void rewrittenClassesReachOnlyTheirStockDependenciesThroughTheCodec() throws Exception {
        Path stockLib = dist("stock").resolve("lib");
        Path patchedLib = dist("patched").resolve("lib");
        Map<String, String> jarOfClass = new HashMap<>();
        Map<String, byte[]> codecClasses = new HashMap<>();
        Map<String, Map<String, byte[]>> rewritten = new TreeMap<>();
        try (Stream<Path> jars = Files.list(patchedLib)) {
            for (Path jar : (Iterable<Path>) jars.sorted()::iterator) {
                String name = jar.getFileName().toString();
                Map<String, byte[]> classes = classes(jar);
                boolean codec = name.startsWith("rmqpatch-codec");
                for (Map.Entry<String, byte[]> e : classes.entrySet()) {
                    jarOfClass.putIfAbsent(e.getKey(), name);
                    if (codec) {
                        codecClasses.put(e.getKey(), e.getValue());
                    }
                }
                Path stock = stockLib.resolve(name);
                if (!codec && Files.exists(stock)) {
                    Map<String, byte[]> stockClasses = classes(stock);
                    Map<String, byte[]> changed = new TreeMap<>();
                    for (Map.Entry<String, byte[]> e : classes.entrySet()) {
                        if (!java.util.Arrays.equals(e.getValue(), stockClasses.get(e.getKey()))) {
                            changed.put(e.getKey(), e.getValue());
                        }
                    }
                    if (!changed.isEmpty()) {
                        rewritten.put(name, changed);
                    }
                }
            }
        }
        assertFalse(codecClasses.isEmpty(), "no codec jar in " + patchedLib);
        assertTrue(rewritten.keySet().stream().anyMatch(n -> n.startsWith("rocketmq-remoting-")), rewritten.keySet().toString());
        StockPoms poms = new StockPoms(mavenRepo());
        StringBuilder problems = new StringBuilder();
        for (Map.Entry<String, Map<String, byte[]>> jar : rewritten.entrySet()) {
            Set<String> allowedJars = allowedJars(poms, jar.getKey(), patchedLib);
            Map<String, String> via = new HashMap<>();
            Deque<String> start = new ArrayDeque<>();
            for (Map.Entry<String, byte[]> c : jar.getValue().entrySet()) {
                for (String ref : references(c.getValue())) {
                    if (ref.startsWith(CODEC) && via.putIfAbsent(ref, c.getKey()) == null) {
                        start.add(ref);
                    }
                }
            }
            Map<String, String> outside = new TreeMap<>();
            Set<String> gatesReached = new TreeSet<>();
            closure(start, via, codecClasses, jarOfClass, allowedJars, outside, gatesReached);
            for (String gate : gatesReached) {
                // Past a gate the codec may use the gate's jar: check its closure against that jar's own stock POM.
                String gateJar = jarStartingWith(patchedLib, GATED.get(gate));
                Deque<String> from = new ArrayDeque<>();
                from.add(gate);
                Map<String, String> gateVia = new HashMap<>();
                gateVia.put(gate, "gate");
                closure(from, gateVia, codecClasses, jarOfClass, allowedJars(poms, gateJar, patchedLib), outside,
                    new TreeSet<>());
            }
            for (Map.Entry<String, String> o : outside.entrySet()) {
                problems.append('\n').append(jar.getKey()).append(" reaches ").append(o.getKey().replace('/', '.'))
                    .append(" ").append(o.getValue());
            }
        }
        assertTrue(problems.length() == 0, "patched jars reach classes their stock POMs do not bring:" + problems);
    }

    /**
     * The closure from {@code todo} over the codec's classes; every class outside the codec, the JDK and
     * {@code allowedJars} goes into {@code outside}. A gated class (see {@link #GATED}) is not entered when its jar is
     * not allowed: it is noted in {@code gatesReached}, for a check of its own.
     */
    private static void closure(Deque<String> todo, Map<String, String> via, Map<String, byte[]> codecClasses,
                                Map<String, String> jarOfClass, Set<String> allowedJars, Map<String, String> outside,
                                Set<String> gatesReached) {
        while (!todo.isEmpty()) {
            String codecClass = todo.poll();
            String gateJar = GATED.get(codecClass);
            if (gateJar != null && allowedJars.stream().noneMatch(j -> j.startsWith(gateJar)) && !"gate".equals(via.get(codecClass))) {
                gatesReached.add(codecClass);
                continue;
            }
            byte[] bytes = codecClasses.get(codecClass);
            if (bytes == null) {
                outside.put(codecClass, "missing from the codec jar (via " + via.get(codecClass) + ")");
                continue;
            }
            for (String ref : references(bytes)) {
                if (ref.startsWith(CODEC)) {
                    if (via.putIfAbsent(ref, codecClass) == null) {
                        todo.add(ref);
                    }
                } else if (!jdk(ref)) {
                    String in = jarOfClass.get(ref);
                    if (in == null || !allowedJars.contains(in)) {
                        outside.putIfAbsent(ref, (in == null ? "in no jar of lib" : "in " + in) + ", from " + codecClass
                            + path(via, codecClass));
                    }
                }
            }
        }
    }

    private static String jarStartingWith(Path lib, String prefix) throws IOException {
        try (Stream<Path> jars = Files.list(lib)) {
            return jars.map(p -> p.getFileName().toString()).filter(n -> n.startsWith(prefix)).findFirst()
                .orElseThrow(() -> new AssertionError("no " + prefix + "*.jar in " + lib));
        }
    }

    private static String path(Map<String, String> via, String codecClass) {
        StringBuilder sb = new StringBuilder();
        String c = codecClass;
        for (int i = 0; i < 20 && via.containsKey(c); i++) {
            c = via.get(c);
            sb.append(" <- ").append(c.substring(c.lastIndexOf('/') + 1));
            if (!c.startsWith(CODEC)) {
                break;
            }
        }
        return sb.toString();
    }

    /** The jar itself, the jars of lib its stock POM brings (transitively), the codec. */
    private static Set<String> allowedJars(StockPoms poms, String jarName, Path lib) throws IOException {
        Set<String> names = new TreeSet<>();
        try (Stream<Path> jars = Files.list(lib)) {
            jars.forEach(p -> names.add(p.getFileName().toString()));
        }
        String artifact = jarName.substring(0, jarName.lastIndexOf('-'));
        String version = jarName.substring(artifact.length() + 1, jarName.length() - ".jar".length());
        Set<String> artifacts = new LinkedHashSet<>();
        collect(poms, "org.apache.rocketmq", artifact, version, artifacts, new TreeSet<>());
        Set<String> allowed = new TreeSet<>();
        allowed.add(jarName);
        for (String n : names) {
            if (n.startsWith("rmqpatch-codec")) {
                allowed.add(n);
            }
            for (String a : artifacts) {
                if (n.startsWith(a + "-") && Character.isDigit(n.charAt(a.length() + 1))) {
                    allowed.add(n);
                }
            }
        }
        return allowed;
    }

    private static void collect(StockPoms poms, String g, String a, String v, Set<String> artifacts, Set<String> seen)
        throws IOException {
        if (!seen.add(g + ":" + a)) {
            return;
        }
        artifacts.add(a);
        if (!g.equals("org.apache.rocketmq") || !poms.pomFile(g, a, v).isFile()) {
            // RocketMQ's own modules are followed; a third-party jar (netty-all, fastjson, ...) is allowed as a leaf:
            // its POMs use profiles StockPoms does not model, and none of them brings another jar the codec names.
            return;
        }
        for (StockPoms.Dep d : poms.read(g, a, v).reachingConsumers()) {
            collect(poms, d.groupId, d.artifactId, d.version, artifacts, seen);
        }
    }

    private static boolean jdk(String internalName) {
        return ClassLoader.getPlatformClassLoader().getResource(internalName + ".class") != null
            || internalName.startsWith("sun/misc/");
    }

    /** Every class a class file names: constant-pool classes and the types inside its descriptors. */
    static Set<String> references(byte[] bytes) {
        Set<String> out = new TreeSet<>();
        ClassReader r = new ClassReader(bytes);
        char[] buf = new char[r.getMaxStringLength()];
        for (int i = 1; i < r.getItemCount(); i++) {
            int at = r.getItem(i);
            if (at == 0) {
                continue;
            }
            int tag = bytes[at - 1];
            if (tag == 7) { // CONSTANT_Class
                addType(out, r.readUTF8(at, buf), true);
            } else if (tag == 12) { // CONSTANT_NameAndType: its descriptor
                addDescriptor(out, r.readUTF8(at + 2, buf));
            } else if (tag == 16) { // CONSTANT_MethodType
                addDescriptor(out, r.readUTF8(at, buf));
            }
        }
        r.accept(new ClassVisitor(Opcodes.ASM9) {
            @Override
            public FieldVisitor visitField(int access, String name, String descriptor, String signature, Object value) {
                addDescriptor(out, descriptor);
                return null;
            }

            @Override
            public MethodVisitor visitMethod(int access, String name, String descriptor, String signature,
                                             String[] exceptions) {
                addDescriptor(out, descriptor);
                return null;
            }
        }, ClassReader.SKIP_CODE);
        out.remove(r.getClassName());
        return out;
    }

    private static void addDescriptor(Set<String> out, String descriptor) {
        if (descriptor.startsWith("(")) {
            for (Type t : Type.getArgumentTypes(descriptor)) {
                addType(out, t.getDescriptor(), false);
            }
            addType(out, Type.getReturnType(descriptor).getDescriptor(), false);
        } else {
            addType(out, descriptor, false);
        }
    }

    private static void addType(Set<String> out, String s, boolean internalName) {
        Type t = internalName && !s.startsWith("[") ? Type.getObjectType(s) : Type.getType(s);
        while (t.getSort() == Type.ARRAY) {
            t = t.getElementType();
        }
        if (t.getSort() == Type.OBJECT) {
            out.add(t.getInternalName());
        }
    }

    private static Map<String, byte[]> classes(Path jar) throws IOException {
        Map<String, byte[]> out = new HashMap<>();
        try (JarFile f = new JarFile(jar.toFile())) {
            for (Enumeration<JarEntry> en = f.entries(); en.hasMoreElements(); ) {
                JarEntry e = en.nextElement();
                String n = e.getName();
                if (n.endsWith(".class") && !n.startsWith("META-INF/")) {
                    try (InputStream in = f.getInputStream(e)) {
                        out.put(n.substring(0, n.length() - ".class".length()), in.readAllBytes());
                    }
                }
            }
        }
        return out;
    }

    private static File mavenRepo() {
        String local = System.getProperty("maven.repo.local");
        return local != null ? new File(local) : new File(System.getProperty("user.home"), ".m2/repository");
    }

    static Path dist(String variant) {
        String p = System.getProperty("rmqpatch.dist." + variant);
        if (p == null) {
            throw new IllegalStateException("system property rmqpatch.dist." + variant + " not set (run through mvn verify)");
        }
        return Path.of(p);
    }
}
