package dev.rmqpatch.patches.build;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

import dev.rmqpatch.patches.Patch;
import dev.rmqpatch.patches.PatchTargets;
import dev.rmqpatch.patches.Patches;
import dev.rmqpatch.patches.Release;
import dev.rmqpatch.patches.RepoRoot;
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
        String generated = PatchesDoc.withReadmeTable(text, Patches.all());
        if (Boolean.getBoolean(UPDATE_PROPERTY)) {
            if (!generated.equals(text)) {
                Files.writeString(readme, generated, StandardCharsets.UTF_8);
                System.out.println("[ReadmePatchTableTest] rewrote the patch table of " + readme);
            }
            return;
        }
        assertEquals(region(generated), region(text), "README.md's patch table differs from the patch classes; "
            + "rewrite it from the repository root with: " + UPDATE_COMMAND);
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
        assertTrue(p2.endsWith("| *not yet* | *not yet* | *not yet* | *not yet* |"), p2);
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
        int begin = readme.indexOf(PatchesDoc.README_BEGIN);
        int end = readme.indexOf(PatchesDoc.README_END);
        return begin < 0 || end < begin ? "(no " + PatchesDoc.README_BEGIN + " ... " + PatchesDoc.README_END + " region)"
            : readme.substring(begin, end + PatchesDoc.README_END.length());
    }
}
