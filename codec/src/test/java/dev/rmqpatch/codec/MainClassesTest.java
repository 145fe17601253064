package dev.rmqpatch.codec;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.Enumeration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;
import java.util.stream.Stream;

import dev.rmqpatch.codec.properties.MessageProperties;
import org.junit.jupiter.api.Test;

/**
 * The codec jar goes into the lib/ of brokers that run on JDK 8, and it exists to take reflection off the hot
 * path: so every main class must be class-file version 52 and must not reference java.lang.reflect.
 */
class MainClassesTest {

    private static final int JAVA_8 = 52;

    @Test
    void mainClassesAreJava8() throws Exception {
        Map<String, byte[]> classes = mainClasses();
        for (Map.Entry<String, byte[]> c : classes.entrySet()) {
            assertEquals(JAVA_8, ClassFileScan.majorVersion(c.getValue()), c.getKey());
        }
    }

    @Test
    void mainClassesDoNotReflect() throws Exception {
        Map<String, byte[]> classes = mainClasses();
        List<String> hits = new ArrayList<>();
        for (Map.Entry<String, byte[]> c : classes.entrySet()) {
            for (String hit : ClassFileScan.reflectiveReferences(c.getValue())) {
                hits.add(c.getKey() + ": " + hit);
            }
        }
        assertEquals(List.of(), hits);
    }

    // --- the scanner itself, so that an empty result above means something -------------------------------

    @Test
    void scannerFlagsFieldReflection() throws Exception {
        byte[] c = bytesOf(ReadsAFieldReflectively.class);
        assertFalse(ClassFileScan.constantPoolHits(c).isEmpty());
        assertFalse(ClassFileScan.codeHits(c).isEmpty());
        assertTrue(ClassFileScan.codeHits(c).stream().anyMatch(h -> h.contains("java/lang/reflect/Field.get")),
            ClassFileScan.codeHits(c).toString());
    }

    @Test
    void scannerFlagsAReflectTypeInADescriptorOnly() throws Exception {
        byte[] c = bytesOf(TakesAMethodParameter.class);
        assertFalse(ClassFileScan.constantPoolHits(c).isEmpty());
        assertTrue(ClassFileScan.codeHits(c).stream().anyMatch(h -> h.startsWith("method describe(Ljava/lang/reflect/Method;)")),
            ClassFileScan.codeHits(c).toString());
    }

    @Test
    void scannerFlagsClassForNameWhichNamesNoReflectType() throws Exception {
        byte[] c = bytesOf(LoadsAClassByName.class);
        assertEquals(List.of(), ClassFileScan.constantPoolHits(c), "nothing in the pool names java.lang.reflect");
        assertTrue(ClassFileScan.codeHits(c).stream().anyMatch(h -> h.contains("java/lang/Class.forName")),
            ClassFileScan.codeHits(c).toString());
    }

    @Test
    void scannerFlagsAReflectNameInAStringConstant() throws Exception {
        byte[] c = bytesOf(NamesReflectInAString.class);
        assertFalse(ClassFileScan.constantPoolHits(c).isEmpty());
        assertFalse(ClassFileScan.codeHits(c).isEmpty());
    }

    @Test
    void scannerPassesACleanClass() throws Exception {
        assertEquals(List.of(), ClassFileScan.reflectiveReferences(bytesOf(NoReflection.class)));
    }

    @Test
    void scannerReadsTheVersion() throws Exception {
        assertEquals(61, ClassFileScan.majorVersion(bytesOf(NoReflection.class)), "test classes are compiled for 17");
    }

    static final class ReadsAFieldReflectively {
        int x;

        static Object read(Object o) throws Exception {
            return o.getClass().getDeclaredField("x").get(o);
        }
    }

    static final class TakesAMethodParameter {
        static String describe(java.lang.reflect.Method m) {
            return String.valueOf(m);
        }
    }

    static final class LoadsAClassByName {
        static Object load(String name) throws Exception {
            return Class.forName(name);
        }
    }

    static final class NamesReflectInAString {
        static String name() {
            return "java.lang.reflect.Proxy";
        }
    }

    static final class NoReflection {
        static Map<String, String> build(String k, String v) {
            Map<String, String> m = new LinkedHashMap<>();
            m.put(k, v);
            return m;
        }
    }

    private static byte[] bytesOf(Class<?> c) throws IOException {
        try (InputStream in = c.getResourceAsStream("/" + c.getName().replace('.', '/') + ".class")) {
            return in.readAllBytes();
        }
    }

    /** Every class file next to the main classes (target/classes in the build, or the jar if run against it). */
    private static Map<String, byte[]> mainClasses() throws IOException, URISyntaxException {
        Path location = Paths.get(MessageProperties.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        Map<String, byte[]> classes = new LinkedHashMap<>();
        if (Files.isDirectory(location)) {
            try (Stream<Path> files = Files.walk(location)) {
                for (Path p : (Iterable<Path>) files.filter(f -> f.toString().endsWith(".class")).sorted()::iterator) {
                    classes.put(location.relativize(p).toString(), Files.readAllBytes(p));
                }
            }
        } else {
            try (JarFile jar = new JarFile(location.toFile())) {
                for (Enumeration<JarEntry> e = jar.entries(); e.hasMoreElements(); ) {
                    JarEntry entry = e.nextElement();
                    if (entry.getName().endsWith(".class")) {
                        try (InputStream in = jar.getInputStream(entry)) {
                            classes.put(entry.getName(), in.readAllBytes());
                        }
                    }
                }
            }
        }
        assertTrue(location.toString().contains("classes") || location.toString().endsWith(".jar"), location.toString());
        for (String expected : new String[] {"MessageProperties", "TransientProperties", "HeaderCodecs", "ExtFields",
            "SendMessageRequestHeaderV2Codec", "SendMessageRequestHeaderCodec", "SendMessageResponseHeaderCodec",
            "RemotingCommandHooks", "HeaderCodec", "JsonHeaderReader", "JsonHeaderWriter", "StockFastjson"}) {
            assertTrue(classes.keySet().stream().anyMatch(k -> k.endsWith("/" + expected + ".class")),
                expected + " not among " + classes.keySet());
        }
        return classes;
    }
}
