package dev.rmqpatch.patches.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Collectors;
import java.util.jar.Attributes;
import java.util.jar.JarOutputStream;
import java.util.jar.Manifest;

import dev.rmqpatch.patches.PatchTargets;
import dev.rmqpatch.patches.ReleaseVariant;
import dev.rmqpatch.patches.Release;
import dev.rmqpatch.patches.Patches;
import dev.rmqpatch.patches.build.JarPatcher;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The operator's check: exit status and output for patched, unpatched and half-installed lib/ folders. */
class ListPatchesTest {

    @TempDir
    Path lib;

    private final ByteArrayOutputStream out = new ByteArrayOutputStream();
    private final ByteArrayOutputStream err = new ByteArrayOutputStream();

    @Test
    void listsPatchedJarsAndTheCodec() throws Exception {
        jar("rocketmq-remoting-4.9.0.jar", "P1 header-decode, P4 response-header-encode, S5 fastjson-safe-mode, S6 frame-bounds");
        jar("rocketmq-client-4.9.0.jar", null);
        jar("rmqpatch-codec-0.1.0.jar", null);
        assertEquals(0, run("--list-patches", lib.toString()), err());
        assertTrue(out().contains("rocketmq-remoting-4.9.0.jar: P1 header-decode, P4 response-header-encode"), out());
        assertTrue(out().contains("rmqpatch-codec-0.1.0.jar"), out());
        assertTrue(!out().contains("rocketmq-client"), "unpatched jars are not listed: " + out());
    }

    @Test
    void saysWhichSecurityPatchesAreInPlace() throws Exception {
        jar("rocketmq-broker-4.9.0.jar", "P3 transient-properties, S1 broker-config-guard, S2 no-filter-server-shell, "
            + "S7 acl-config-leak, S8 acl-admin-only, S9 group-name-check");
        jar("rocketmq-namesrv-4.9.0.jar", "S3 namesrv-config-guard");
        jar("rocketmq-remoting-4.9.0.jar", "P1 header-decode, S5 fastjson-safe-mode, S6 frame-bounds");
        jar("rocketmq-common-4.9.0.jar", "P2 properties-codec, S6 frame-bounds");
        jar("rmqpatch-codec-0.1.0.jar", null);
        assertEquals(0, run("--list-patches", lib.toString()), out() + err());
        assertTrue(out().contains("security: S7 acl-config-leak closes CVE-2024-23321 (rocketmq-broker-4.9.0.jar)"), out());
        assertTrue(out().contains("security: S5 fastjson-safe-mode closes fastjson autoType"), out());
        assertTrue(out().contains("security: S1 broker-config-guard closes CVE-2023-33246 (rocketmq-broker-4.9.0.jar)"), out());
        assertTrue(out().contains("security: S3 namesrv-config-guard closes CVE-2023-37582 (rocketmq-namesrv-4.9.0.jar)"), out());
    }

    @Test
    void aStockNameServerJarBesidePatchedOnesIsReported() throws Exception {
        jar("rocketmq-broker-4.9.0.jar", "P3 transient-properties, S1 broker-config-guard, S2 no-filter-server-shell");
        jar("rocketmq-namesrv-4.9.0.jar", null);
        jar("rmqpatch-codec-0.1.0.jar", null);
        assertEquals(4, run("--list-patches", lib.toString()));
        assertTrue(out().contains("security: MISSING S3 in rocketmq-namesrv-4.9.0.jar: CVE-2023-37582 is open"), out());
    }

    @Test
    void anOlderBuildWithoutSecurityPatchesIsReported() throws Exception {
        jar("rocketmq-broker-4.9.0.jar", "P3 transient-properties");
        jar("rmqpatch-codec-0.1.0.jar", null);
        assertEquals(4, run("--list-patches", lib.toString()));
        assertTrue(out().contains("MISSING S1") && out().contains("MISSING S2"), out());
    }

    @Test
    void securityTableMatchesThePatchClasses() {
        // A row per jar a security patch's edits land in (PatchTargets), with the hole it closes.
        List<String> fromPatches = Patches.all().stream().filter(p -> !p.closes().isEmpty())
            .flatMap(p -> PatchTargets.jars(p).stream().map(jar -> p.id() + " " + p.closes() + " " + jar + "-"))
            .collect(Collectors.toList());
        List<String> fromTable = Arrays.stream(ListPatches.SECURITY).map(s -> s[0] + " " + s[1] + " " + s[2])
            .collect(Collectors.toList());
        assertEquals(fromPatches, fromTable);
        // Release by release: the jars each security patch applied there (as written or as its variant) edits.
        for (Release r : Release.values()) {
            List<String> applied = Patches.all().stream().filter(p -> !p.closes().isEmpty() && p.on(r).applies())
                .map(p -> ReleaseVariant.of(p, r))
                .flatMap(p -> PatchTargets.jars(p).stream().map(jar -> p.id() + " " + jar + "-"))
                .collect(Collectors.toList());
            List<String> rows = Arrays.stream(ListPatches.SECURITY)
                .filter(s -> applied.stream().anyMatch(a -> a.startsWith(s[0] + " ")) && ListPatches.editsJarOf(s, r.version()))
                .map(s -> s[0] + " " + s[2]).collect(Collectors.toList());
            assertEquals(applied, rows, r.version());
        }
    }

    @Test
    void aVariantThatLeavesAJarAloneIsNotMissingThere() throws Exception {
        jar("rocketmq-remoting-4.9.7.jar", "P7 codec-on-io-thread");
        jar("rocketmq-common-4.9.7.jar", "S6 frame-bounds");
        jar("rocketmq-store-4.9.7.jar", "S6 frame-bounds");
        jar("rmqpatch-codec-0.1.0.jar", null);
        run("--list-patches", lib.toString());
        assertTrue(out().contains("security: S6 leaves rocketmq-remoting-4.9.7.jar alone from 4.9.4"), out());
        assertFalse(out().contains("MISSING S6"), out());
        jar("rocketmq-store-4.9.7.jar", "P9 inline-response");
        run("--list-patches", lib.toString());
        assertTrue(out().contains("MISSING S6 in rocketmq-store-4.9.7.jar"), out());
    }

    @Test
    void stockLibHasNoPatches() throws Exception {
        jar("rocketmq-remoting-4.9.0.jar", null);
        assertEquals(1, run("--list-patches", lib.toString()));
        assertTrue(out().contains("no rmqpatch patches"), out());
    }

    @Test
    void patchedJarsWithoutTheCodecAreAnError() throws Exception {
        jar("rocketmq-common-4.9.0.jar", "P2 properties-codec");
        assertEquals(3, run("--list-patches", lib.toString()));
        assertTrue(err().contains("no rmqpatch-codec jar"), err());
    }

    @Test
    void usageErrorsAndHelp() {
        assertEquals(0, run("--help"));
        assertTrue(out().contains("--list-patches"), out());
        assertEquals(2, run("--list-pathces"));
        assertTrue(err().contains("unknown arguments"), err());
        assertEquals(2, run());
        assertEquals(2, run("--verify"));
        assertTrue(err().contains("--verify takes exactly one LIB_DIR"), err());
        assertEquals(2, run("--verify", lib.resolve("missing").toString()));
        assertEquals(1, run("--verify", lib.toString()), "an empty folder has no record");
        assertEquals(2, run("--list-patches", lib.resolve("missing").toString()));
        assertTrue(err().contains("not a folder"), err());
    }

    private int run(String... args) {
        out.reset();
        err.reset();
        return ListPatches.run(args, new PrintStream(out, true, StandardCharsets.UTF_8),
            new PrintStream(err, true, StandardCharsets.UTF_8));
    }

    private String out() {
        return out.toString(StandardCharsets.UTF_8);
    }

    private String err() {
        return err.toString(StandardCharsets.UTF_8);
    }

    private void jar(String name, String patches) throws IOException {
        Manifest m = new Manifest();
        m.getMainAttributes().put(Attributes.Name.MANIFEST_VERSION, "1.0");
        if (patches != null) {
            m.getMainAttributes().putValue(JarPatcher.MANIFEST_ATTRIBUTE, patches);
        }
        try (OutputStream os = Files.newOutputStream(lib.resolve(name)); JarOutputStream jos = new JarOutputStream(os, m)) {
            jos.flush();
        }
    }
}
