package dev.rmqpatch.patches;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * scripts/patch-lib.sh as an operator runs it, on this build's jars: --help, wrong flags refused with status 2 before
 * any work, a stock 4.9.7 lib/ patched and then verified, a file added afterwards found.
 */
class PatchLibScriptIT {

    @TempDir
    Path tmp;

    private record Result(int exit, String out) {
    }

    private static Result run(String... args) throws Exception {
        List<String> cmd = new ArrayList<>();
        cmd.add(RepoRoot.find().resolve("scripts/patch-lib.sh").toString());
        cmd.addAll(List.of(args));
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        try {
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            assertTrue(p.waitFor(120, TimeUnit.SECONDS), String.join(" ", cmd) + ": finished");
            return new Result(p.exitValue(), out);
        } finally {
            p.destroyForcibly();
        }
    }

    @Test
    void helpAndWrongFlags() throws Exception {
        Result help = run("--help");
        assertEquals(0, help.exit, help.out);
        assertTrue(help.out.contains("Usage: scripts/patch-lib.sh LIB_DIR --out OUT_DIR"), help.out);
        String lib = TestCluster.dist("stock497").resolve("lib").toString();
        String out = tmp.resolve("o").toString();
        String[][] wrong = {
            {"--bogus"}, {lib}, {lib, "--out"}, {lib, "--out", out, "--verify", out}, {lib, lib, "--out", out},
            {tmp.resolve("absent").toString(), "--out", out}, {lib, "--out", out, "--codec-jar", "a.jar", "--codec-jar", "b.jar"}};
        String[] says = {"unknown option '--bogus'", "give --out OUT_DIR (write) or --verify OUT_DIR (check)",
            "--out needs a value", "give one of --out and --verify, once", "unexpected argument", "not a folder",
            "--codec-jar given twice"};
        for (int i = 0; i < wrong.length; i++) {
            Result r = run(wrong[i]);
            assertEquals(2, r.exit, String.join(" ", wrong[i]) + ": " + r.out);
            assertTrue(r.out.contains(says[i]), String.join(" ", wrong[i]) + ": " + r.out);
        }
        assertFalse(Files.exists(Path.of(out)), "nothing written");
    }

    @Test
    void patchesA497LibAndVerifiesIt() throws Exception {
        String lib = TestCluster.dist("stock497").resolve("lib").toString();
        Path out = tmp.resolve("lib");
        Result made = run(lib, "--out", out.toString());
        assertEquals(0, made.exit, made.out);
        assertTrue(made.out.contains("0 refused by witness; start-up report applied"), made.out);
        assertTrue(Files.isRegularFile(out.resolve("rmqpatch/report.json")), made.out);
        Result verified = run(lib, "--verify", out.toString());
        assertEquals(0, verified.exit, verified.out);
        Files.write(out.resolve("added.jar"), new byte[] {1});
        Result differs = run(lib, "--verify", out.toString());
        assertEquals(5, differs.exit, differs.out);
        assertTrue(differs.out.contains("DIFF added.jar: not written by patch-lib"), differs.out);
    }
}
