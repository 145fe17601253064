package dev.rmqpatch.patches;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * S5's declaration that the fastjson autoType hole is upstream's from 4.9.4: the fastjson those releases ship
 * (1.2.69_noneautotype) refuses the exploit's {@code @type} before it loads any class. The exploit itself, on 4.9.0's
 * fastjson 1.2.76, is AutoTypeExploitIT's control (it instantiates the gadget on JDK 8).
 */
class FastjsonReleasesTest {

    @TempDir
    Path tmp;

    @Test
    void theFastjsonOf494To498RefusesEveryAtType() throws Exception {
        Path dir = Path.of(System.getProperty("rmqpatch.release.fastjson", "target/release-fastjson"));
        List<Path> jars;
        try (Stream<Path> s = Files.list(dir)) {
            jars = s.filter(p -> p.getFileName().toString().endsWith(".jar")).collect(Collectors.toList());
        }
        assertEquals(1, jars.size(), "one fastjson jar in " + dir + ": " + jars);
        assertTrue(jars.get(0).getFileName().toString().equals("fastjson-1.2.69_noneautotype.jar"), jars.toString());
        Path marker = tmp.resolve("marker");
        // The gadget's class name need not exist: the refusal comes before any class is looked up.
        String[] values = {
            "{\"@type\":\"java.lang.Exception\",\"@type\":\"rmqpatch.gadget.Marker\",\"marker\":\"" + marker + "\"}",
            "{\"@type\":\"java.util.HashMap\",\"a\":1}",
            "{\"x\":{\"@type\":\"java.lang.AutoCloseable\"}}",
        };
        try (URLClassLoader loader = new URLClassLoader(new URL[] {jars.get(0).toUri().toURL()},
            ClassLoader.getPlatformClassLoader())) {
            Method parse = loader.loadClass("com.alibaba.fastjson.JSON").getMethod("parse", String.class);
            for (String value : values) {
                try {
                    Object o = parse.invoke(null, value);
                    throw new AssertionError("parsed " + value + " into " + o);
                } catch (InvocationTargetException e) {
                    assertEquals("com.alibaba.fastjson.JSONException", e.getCause().getClass().getName(), value);
                    assertTrue(e.getCause().getMessage().startsWith("safeMode not support autoType"),
                        e.getCause().getMessage());
                }
            }
            assertEquals("{\"a\":1}", String.valueOf(parse.invoke(null, "{\"a\":1}")), "plain JSON still parses");
        }
        assertFalse(Files.exists(marker));
    }

    @Test
    void s5IsDeclaredUpstreamWhereThatFastjsonShips() {
        Patch s5 = Patches.all().stream().filter(p -> p.id().equals("S5")).findFirst().orElseThrow();
        assertTrue(s5.on(Release.V4_9_0).applies());
        assertTrue(s5.on(Release.V4_9_3).applies(), "4.9.3 ships fastjson 1.2.76");
        for (Release r : new Release[] {Release.V4_9_4, Release.V4_9_7, Release.V4_9_8}) {
            assertEquals(ReleaseFit.Kind.UPSTREAM, s5.on(r).kind(), r.version());
        }
    }
}
