package dev.rmqpatch.codec.switches;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.OutputStream;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.jar.Attributes;
import java.util.jar.JarOutputStream;
import java.util.jar.Manifest;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class StartupHooksTest {

    @TempDir
    Path tmp;

    @Test
    void readsPatchLabelsFromEveryJarManifest() throws Exception {
        URL a = jar("a.jar", "P1 header-decode, P4 response-header-encode");
        URL b = jar("b.jar", null);
        URL c = jar("c.jar", "S3 namesrv-config-guard");
        try (URLClassLoader l = new URLClassLoader(new URL[] {a, b, c}, null)) {
            assertEquals(List.of("P1 header-decode", "P4 response-header-encode", "S3 namesrv-config-guard"),
                List.copyOf(StartupHooks.builtInPatches(l)));
        }
    }

    /** The start-up line offers -Drmqpatch.enable only for a patch that ships off and is in the jars. */
    @Test
    void shippedOffListsOnlyPatchesInTheJars() {
        assertEquals(List.of("P14"), StartupHooks.shippedOff(List.of("P7", "P14")));
        assertEquals(List.of(), StartupHooks.shippedOff(List.of("P7", "P9")));
    }

    private URL jar(String name, String patches) throws Exception {
        Manifest m = new Manifest();
        m.getMainAttributes().put(Attributes.Name.MANIFEST_VERSION, "1.0");
        if (patches != null) {
            m.getMainAttributes().putValue(PatchSwitches.MANIFEST_ATTRIBUTE, patches);
        }
        Path p = tmp.resolve(name);
        try (OutputStream os = Files.newOutputStream(p); JarOutputStream jos = new JarOutputStream(os, m)) {
            jos.flush();
        }
        return p.toUri().toURL();
    }
}
