package dev.rmqpatch.bench.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

class VariantTest {

    @Test
    void namedVariants() {
        Variant tuned = Variant.parse("4.9.0-tuned");
        assertFalse(tuned.patched());
        assertEquals("broker-tuned.conf", tuned.confName());
        assertEquals(List.of(), tuned.jvmOptions());
        Variant patched = Variant.parse("4.9.0-patched");
        assertTrue(patched.patched());
        assertEquals("rocketmq-4.9.0-patched", patched.distName());
        assertEquals("broker.conf", Variant.parse("4.9.1").confName());
    }

    @Test
    void stock498And533RunAsThemselvesOnly() {
        for (String v : new String[] {"4.9.8", "5.3.3"}) {
            Variant plain = Variant.parse(v + "@8#2");
            assertFalse(plain.patched());
            assertEquals("rocketmq-" + v + "-stock", plain.distName());
            assertEquals("broker.conf", plain.confName());
            assertEquals(Map.of(), plain.overrides(8), "their own defaults");
            assertEquals(8, plain.jdk());
            for (String suffix : new String[] {"-tuned", "-patched", "-patched-without-P7"}) {
                IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Variant.parse(v + suffix));
                assertTrue(e.getMessage().contains(v + " runs stock only"), e.getMessage());
            }
        }
    }

    @Test
    void patchedWithoutSomePatchesSwitchesThemOffAtStart() {
        Variant v = Variant.parse("4.9.0-patched-without-P7+P9");
        assertTrue(v.patched());
        assertEquals("rocketmq-4.9.0-patched", v.distName(), "same jars");
        assertEquals("broker-tuned.conf", v.confName(), "same parameters");
        assertEquals(List.of("P7", "P9"), v.disabledPatches());
        assertEquals(List.of("-Drmqpatch.disable=P7,P9"), v.jvmOptions());
    }

    @Test
    void patchedWithAPatchThatShipsOffTurnsItOnAtStart() {
        Variant v = Variant.parse("4.9.0-patched-with-P14@8");
        assertTrue(v.patched());
        assertEquals("rocketmq-4.9.0-patched", v.distName(), "same jars");
        assertEquals(List.of("P14"), v.enabledPatches());
        assertEquals(List.of("-Drmqpatch.enable=P14"), v.jvmOptions());
        Variant both = Variant.parse("4.9.0-patched-with-P14-without-P19+P24");
        assertEquals(List.of("-Drmqpatch.enable=P14", "-Drmqpatch.disable=P19,P24"), both.jvmOptions());
        assertThrows(IllegalArgumentException.class, () -> Variant.parse("4.9.0-patched-without-P19-with-P14"),
            "-with- comes first");
        assertThrows(IllegalArgumentException.class, () -> Variant.parse("4.9.0-tuned-with-P14"));
    }

    @Test
    void badNamesAreRefusedWithTheForms() {
        for (String bad : new String[] {"4.9.0-tuned-without-P7", "4.9.0-patched-without-", "4.9.0-patched-without-p7", "latest"}) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Variant.parse(bad), bad);
            assertTrue(e.getMessage().contains("-without-ID"), e.getMessage());
        }
    }

    @Test
    void aJdkSuffixChoosesTheServersJdkAndNothingElse() throws Exception {
        Variant v = Variant.parse("4.9.0-patched-without-P7@8");
        assertEquals(8, v.jdk());
        assertEquals("4.9.0-patched-without-P7@8", v.name());
        assertEquals("rocketmq-4.9.0-patched", v.distName());
        assertEquals(List.of("P7"), v.disabledPatches());
        assertEquals(null, Variant.parse("4.9.0-tuned").jdk());
        assertEquals(null, Variant.parse("4.9.0-tuned").javaHome(), "no suffix: the inherited JAVA_HOME");
        int own = Runtime.version().feature();
        assertEquals(java.nio.file.Path.of(System.getProperty("java.home")), Variant.parse("4.9.0-tuned@" + own).javaHome());
    }

    @Test
    void aCopySuffixNamesAnotherCopyOfTheSameVariant() {
        Variant a = Variant.parse("4.9.0-tuned");
        Variant b = Variant.parse("4.9.0-tuned#2");
        assertEquals("4.9.0-tuned#2", b.name());
        assertEquals(a.distName(), b.distName());
        assertEquals(a.confName(), b.confName());
        assertEquals(a.jvmOptions(), b.jvmOptions());
        Variant c = Variant.parse("4.9.0-patched-without-P7@8#3");
        assertEquals(8, c.jdk());
        assertEquals(List.of("P7"), c.disabledPatches());
        assertThrows(IllegalArgumentException.class, () -> Variant.parse("4.9.0-tuned#"));
        assertThrows(IllegalArgumentException.class, () -> Variant.parse("4.9.0-tuned#x"));
    }

    @Test
    void anUnknownJdkIsRefusedWithTheKnownOnes() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Variant.parse("4.9.0-patched@7"));
        assertTrue(e.getMessage().contains("@8") && e.getMessage().contains("JDK 7"), e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> Variant.parse("4.9.0-patched@"));
    }
}
