package dev.rmqpatch.patches.build;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

import dev.rmqpatch.patches.Patches;
import dev.rmqpatch.patches.RepoRoot;
import org.junit.jupiter.api.Test;

/**
 * docs/releases.md's declaration table is what {@link ReleasesDoc} generates from the patch classes. Run with
 * {@code -Drmqpatch.updateDocs=true} (the command is in the failure message) to rewrite it instead.
 */
class ReleasesDocTest {

    static final String UPDATE_COMMAND = "nice mvn -B -o -q -pl codec,local-cluster,broker-patches test -Dtest=ReleasesDocTest "
        + "-Dsurefire.failIfNoSpecifiedTests=false -D" + ReadmePatchTableTest.UPDATE_PROPERTY + "=true";

    @Test
    void releasesPageTableIsWhatThePatchClassesDeclare() throws Exception {
        Path doc = RepoRoot.find().resolve("docs/releases.md");
        String text = Files.readString(doc, StandardCharsets.UTF_8);
        String generated = ReleasesDoc.withTable(text, Patches.all());
        if (Boolean.getBoolean(ReadmePatchTableTest.UPDATE_PROPERTY)) {
            if (!generated.equals(text)) {
                Files.writeString(doc, generated, StandardCharsets.UTF_8);
                System.out.println("[ReleasesDocTest] rewrote the declaration table of " + doc);
            }
            return;
        }
        assertEquals(region(generated), region(text), "docs/releases.md's declaration table differs from the patch "
            + "classes; rewrite it from the repository root with: " + UPDATE_COMMAND);
    }

    @Test
    void oneRowPerPatchAndEachReasonOnce() {
        String table = ReleasesDoc.table(Patches.all());
        assertTrue(table.contains("| P8 remote-address-cache | applies | **already upstream** | **already upstream** | "
            + "**already upstream** | **already upstream** |"), table);
        assertTrue(table.contains("- P8 remote-address-cache, already upstream on 4.9.3, 4.9.4, 4.9.7, 4.9.8: "), table);
        assertTrue(table.contains("- P36 batch-property-separator, already upstream on 4.9.3, 4.9.4: "), table);
        assertTrue(table.contains("- P36 batch-property-separator, already upstream on 4.9.7, 4.9.8: "), table);
        assertTrue(table.contains("- P28 consume-decode, applies as variant on 4.9.3: "), table);
        assertTrue(table.contains("- P28 consume-decode, applies as variant on 4.9.4, 4.9.7, 4.9.8: "), table);
        assertEquals(Patches.all().size(), table.lines().filter(l -> l.matches("\\| [PS][0-9]+ .*")).count());
    }

    private static String region(String doc) {
        int begin = doc.indexOf(ReleasesDoc.BEGIN);
        int end = doc.indexOf(ReleasesDoc.END);
        return begin < 0 || end < begin ? "(no " + ReleasesDoc.BEGIN + " ... " + ReleasesDoc.END + " region)"
            : doc.substring(begin, end + ReleasesDoc.END.length());
    }
}
