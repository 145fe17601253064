package dev.rmqpatch.patches.build;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.Set;

import dev.rmqpatch.patches.Patch;
import dev.rmqpatch.patches.PatchTargets;
import dev.rmqpatch.patches.Patches;
import dev.rmqpatch.patches.Release;
import dev.rmqpatch.patches.ReleaseFit;
import dev.rmqpatch.patches.RepoRoot;
import dev.rmqpatch.patches.SecurityHole;
import org.junit.jupiter.api.Test;

/**
 * README.md's patch table is what {@link PatchesDoc} generates from the patch classes. Run with
 * {@code -Drmqpatch.updateDocs=true} (the command is in the failure message) to rewrite it instead.
 */
class ReadmePatchTableTest {

    static final String UPDATE_PROPERTY = "rmqpatch.updateDocs";
    static final String UPDATE_COMMAND = "nice mvn -B -o -q -pl broker-patches -am test -Dtest=ReadmePatchTableTest "
        + "-Dsurefire.failIfNoSpecifiedTests=false -D" + UPDATE_PROPERTY + "=true";

    @Test
    void readmeTableIsWhatThePatchClassesGenerate() throws Exception {
        Path readme = RepoRoot.find().resolve("README.md");
        String text = Files.readString(readme, StandardCharsets.UTF_8);
        String generated = PatchesDoc.withSecurityTable(PatchesDoc.withReadmeTable(text, Patches.all()), Patches.all());
        if (Boolean.getBoolean(UPDATE_PROPERTY)) {
            if (!generated.equals(text)) {
                Files.writeString(readme, generated, StandardCharsets.UTF_8);
                System.out.println("[ReadmePatchTableTest] rewrote the patch table of " + readme);
            }
            return;
        }
        assertEquals(region(generated), region(text), "README.md's patch table differs from the patch classes; "
            + "rewrite it from the repository root with: " + UPDATE_COMMAND);
        assertEquals(region(generated, PatchesDoc.SECURITY_BEGIN, PatchesDoc.SECURITY_END),
            region(text, PatchesDoc.SECURITY_BEGIN, PatchesDoc.SECURITY_END), "README.md's security table differs from "
            + "SecurityHole and the patches' declarations; rewrite it from the repository root with: " + UPDATE_COMMAND);
    }

    /** The security table: every hole per release, from its upstream fix and its patches' declarations. */
    @Test
    void securityTableSaysPerReleaseWhatIsOpenAndWhatClosesIt() {
        String table = PatchesDoc.securityTable(Patches.all());
        assertTrue(table.contains("| hole | what an attacker who reaches the port gets | 4.9.0 | 4.9.3 | 4.9.4 | 4.9.7 | 4.9.8 |"),
            table);
        assertTrue(row(table, "CVE-2023-33246").endsWith("| **closed** (S1, S2) | **closed** (S1, S2) | **closed** (S1, S2) "
            + "| *fixed upstream* | *fixed upstream* |"), table);
        assertTrue(row(table, "CVE-2023-37582").endsWith("| **closed** (S3) | **closed** (S3) | **closed** (S3) "
            + "| *fixed upstream* | *fixed upstream* |"), table);
        assertTrue(row(table, "fastjson autoType").endsWith("| **closed** (S5) | **closed** (S5) | *fixed upstream* "
            + "| *fixed upstream* | *fixed upstream* |"), table);
        assertTrue(row(table, "CVE-2024-23321").endsWith("| **closed** (S7, S8) | **closed** (S7, S8) | **closed** (S7, S8) "
            + "| **closed** (S7, S8) | **closed** (S8) |"), table);
        assertTrue(row(table, "trusted lengths").endsWith("| **closed** (S6) | **closed** (S6) | **closed** (S6) "
            + "| **closed** (S6) | **closed** (S6) |"), table);
        assertFalse(table.contains("(no patch)"), "a hole open on a release that no patch closes or waits for:\n" + table);
    }

    /** Every security patch closes a hole of the table. */
    @Test
    void everySecurityPatchWithAHoleIsInTheTable() {
        Set<String> inTable = new HashSet<>();
        for (SecurityHole h : SecurityHole.values()) {
            inTable.addAll(h.closedBy());
        }
        for (Patch p : Patches.all()) {
            if (!p.closes().isEmpty()) {
                assertTrue(inTable.contains(p.id()), p.id() + " closes " + p.closes() + " but no SecurityHole names it");
            }
        }
    }

    private static String row(String table, String hole) {
        return table.lines().filter(l -> l.startsWith("| " + hole + " |")).findFirst()
            .orElseThrow(() -> new AssertionError("no row for " + hole + ":\n" + table));
    }

    @Test
    void oneShortRowPerPatchWithItsJarsAndWhatItBuys() {
        String table = PatchesDoc.readmeTable(Patches.all());
        for (Patch p : Patches.all()) {
            String row = table.lines().filter(l -> l.startsWith("| " + p.id() + " |")).findFirst().orElseThrow(
                () -> new AssertionError("no row for " + p.id() + ":\n" + table));
            for (String jar : PatchTargets.jars(p)) {
                assertTrue(row.contains("(" + jar + ")"), row);
            }
            StringBuilder releases = new StringBuilder();
            for (Release r : PatchesDoc.laterReleases()) {
                releases.append(' ').append(PatchesDoc.releaseCell(p.on(r))).append(" |");
            }
            assertTrue(row.endsWith(" | " + p.buys() + (p.onByDefault() ? "" : "; **off by default** (`-Drmqpatch.enable="
                + p.id() + "`)") + " |" + releases), row);
            assertTrue(p.buys().length() <= 160, p.id() + ": buys() is for a README cell, keep it short: " + p.buys());
        }
        assertTrue(table.contains("| P3 | `transient-properties` | `SendMessageProcessor.asyncSendMessage` (rocketmq-broker) | "
            + "`MessageDecoder.messageProperties2String` \u2192 `MessageProperties.encodeForStore`; second "
            + "`MessageDecoder.string2messageProperties` \u2192 the message's parsed map | 11 CommitLog bytes less per message"),
            table);
    }

    @Test
    void releaseColumnsSayWhatPatchLibDoes() {
        String table = PatchesDoc.readmeTable(Patches.all());
        assertTrue(table.contains("| what it buys | 4.9.3 | 4.9.4 | 4.9.7 | 4.9.8 |"), table);
        String p8 = table.lines().filter(l -> l.startsWith("| P8 |")).findFirst().orElseThrow(AssertionError::new);
        assertTrue(p8.endsWith("| *upstream* | *upstream* | *upstream* | *upstream* |"), p8);
        String p7 = table.lines().filter(l -> l.startsWith("| P7 |")).findFirst().orElseThrow(AssertionError::new);
        assertTrue(p7.endsWith("| **yes** | **yes** | **yes** | **yes** |"), p7);
        String p2 = table.lines().filter(l -> l.startsWith("| P2 |")).findFirst().orElseThrow(AssertionError::new);
        assertTrue(p2.endsWith("| **variant** | **variant** | **variant** | **variant** |"), p2);
        String p6 = table.lines().filter(l -> l.startsWith("| P6 |")).findFirst().orElseThrow(AssertionError::new);
        assertTrue(p6.endsWith("| **yes** | **variant** | **variant** | **variant** |"), p6);
        // No patch waits for a variant on a supported release today; a declaration that did would say so in its cell.
        assertFalse(table.lines().anyMatch(l -> l.startsWith("| P") && l.contains("*not yet*")), table);
        assertEquals("*not yet*", PatchesDoc.releaseCell(ReleaseFit.needsVariant("a variant for 4.9.x is not written")));
    }

    @Test
    void aCellCannotSplitTheTable() {
        StringBuilder sb = new StringBuilder();
        PatchesDoc.row(sb, "`[%|a-z]`", "c");
        assertEquals("| `[%\\|a-z]` | c |\n", sb.toString());
    }

    @Test
    void missingMarkersAreNamed() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
            () -> PatchesDoc.withReadmeTable("# rmqpatch\n| P1 | ... |\n", Patches.all()));
        assertTrue(e.getMessage().contains(PatchesDoc.README_BEGIN), e.getMessage());
    }

    /** The region between the markers, markers included, so a failure shows the table and nothing else. */
    private static String region(String readme) {
        return region(readme, PatchesDoc.README_BEGIN, PatchesDoc.README_END);
    }

    private static String region(String readme, String beginMarker, String endMarker) {
        int begin = readme.indexOf(beginMarker);
        int end = readme.indexOf(endMarker);
        return begin < 0 || end < begin ? "(no " + beginMarker + " ... " + endMarker + " region)"
            : readme.substring(begin, end + endMarker.length());
    }
}
