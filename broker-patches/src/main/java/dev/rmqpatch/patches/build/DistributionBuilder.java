package dev.rmqpatch.patches.build;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import dev.rmqpatch.patches.Patches;
import dev.rmqpatch.patches.StartupReport;
import dev.rmqpatch.patches.transform.PatchException;

/**
 * Runs at {@code mvn package}: assembles {@code rocketmq-<version>-stock/} and {@code rocketmq-<version>-patched/}
 * (lib/, bin/, conf/, tools/, and PATCHES.md in the patched one).
 */
public final class DistributionBuilder {

    private DistributionBuilder() {
    }

    public static void main(String[] args) throws Exception {
        Map<String, String> opts = parse(args);
        String version = require(opts, "--rocketmq-version");
        File stockLib = new File(require(opts, "--stock-lib"));
        File codecLib = new File(require(opts, "--codec-lib"));
        File toolsJar = new File(require(opts, "--tools-jar"));
        File distSrc = new File(require(opts, "--dist-src"));
        File out = new File(require(opts, "--out"));
        boolean skipPatches = Boolean.parseBoolean(opts.get("--skip-patches"));

        File stock = new File(out, "rocketmq-" + version + "-stock");
        assemble(stock, distSrc, toolsJar, version, "stock");
        copyTree(stockLib.toPath(), new File(stock, "lib").toPath());
        writeSums(stock, out);
        System.out.println("[rmqpatch] stock distribution: " + stock);
        if (skipPatches) {
            System.out.println("[rmqpatch] patches skipped (-Dpatches.skip=true): no patched distribution");
            return;
        }
        File patched = new File(out, "rocketmq-" + version + "-patched");
        assemble(patched, distSrc, toolsJar, version, "patched");
        File codecJar = single(codecLib);
        Map<String, List<String>> applied;
        try {
            applied = JarPatcher.patch(stockLib, codecJar, Patches.all(), StartupReport.edits(), new File(patched, "lib"));
        } catch (PatchException e) {
            // A half-built patched folder next to a good stock one would be mistaken for a distribution.
            deleteTree(patched.toPath());
            throw new IllegalStateException("rmqpatch: cannot patch RocketMQ " + version + ": " + e.getMessage()
                + " (the patches target 4.9.0; build other versions with -Dpatches.skip=true)", e);
        }
        for (Map.Entry<String, List<String>> e : applied.entrySet()) {
            System.out.println("[rmqpatch] patched " + e.getKey() + ": " + e.getValue());
        }
        Files.write(new File(patched, "PATCHES.md").toPath(),
            PatchesDoc.render(version, Patches.all(), applied, codecJar.getName()).getBytes(StandardCharsets.UTF_8));
        copyRecords(new File(patched, "lib"), applied.keySet(), new File(patched, "record"));
        writeSums(patched, out);
        System.out.println("[rmqpatch] patched distribution: " + patched);
    }

    private static void assemble(File dist, File distSrc, File toolsJar, String version, String variant) throws IOException {
        deleteTree(dist.toPath());
        copyTree(new File(distSrc, "bin").toPath(), new File(dist, "bin").toPath());
        copyTree(new File(distSrc, "conf").toPath(), new File(dist, "conf").toPath());
        File[] scripts = new File(dist, "bin").listFiles();
        if (scripts != null) {
            for (File f : scripts) {
                if (!f.setExecutable(true, false)) {
                    throw new IOException("cannot make executable: " + f);
                }
            }
        }
        File tools = new File(dist, "tools");
        if (!tools.mkdirs()) {
            throw new IOException("cannot create " + tools);
        }
        Files.copy(toolsJar.toPath(), new File(tools, "rmqpatch-info.jar").toPath(), StandardCopyOption.REPLACE_EXISTING);
        Files.write(new File(dist, "VERSION").toPath(),
            ("RocketMQ " + version + " " + variant + " distribution built by rmqpatch\n").getBytes(StandardCharsets.UTF_8));
    }

    /** Each rewritten jar's record, also as a plain file, so it can be read and published without unzipping. */
    private static void copyRecords(File lib, Iterable<String> rewritten, File recordDir) throws IOException {
        if (!recordDir.isDirectory() && !recordDir.mkdirs()) {
            throw new IOException("cannot create " + recordDir);
        }
        for (String jarName : rewritten) {
            java.util.jar.JarFile jar = new java.util.jar.JarFile(new File(lib, jarName));
            try {
                java.io.InputStream in = jar.getInputStream(jar.getEntry(PatchRecord.ENTRY));
                try {
                    Files.copy(in, new File(recordDir, jarName + ".RECORD").toPath(), StandardCopyOption.REPLACE_EXISTING);
                } finally {
                    in.close();
                }
            } finally {
                jar.close();
            }
        }
    }

    /**
     * {@code SHA256SUMS} in the distribution (for {@code sha256sum -c}, run from its folder) and the same file beside
     * it in the build output, named after it: the anchors an operator compares a received jar set against.
     */
    private static void writeSums(File dist, File out) throws IOException {
        java.util.List<String> lines = new java.util.ArrayList<String>();
        for (String dir : new String[] {"lib", "tools"}) {
            for (File jar : JarPatcher.jarsIn(new File(dist, dir))) {
                lines.add(PatchRecord.sha256(jar) + "  " + dir + "/" + jar.getName());
            }
        }
        StringBuilder sb = new StringBuilder();
        for (String l : lines) {
            sb.append(l).append('\n');
        }
        byte[] bytes = sb.toString().getBytes(StandardCharsets.UTF_8);
        Files.write(new File(dist, "SHA256SUMS").toPath(), bytes);
        Files.write(new File(out, dist.getName() + ".SHA256SUMS").toPath(), bytes);
    }

    private static File single(File dir) throws IOException {
        List<File> jars = JarPatcher.jarsIn(dir);
        if (jars.size() != 1) {
            throw new IOException("expected exactly one codec jar in " + dir + ", found " + jars);
        }
        return jars.get(0);
    }

    private static void copyTree(final Path from, final Path to) throws IOException {
        Files.walkFileTree(from, new SimpleFileVisitor<Path>() {
            @Override
            public FileVisitResult preVisitDirectory(Path dir, BasicFileAttributes attrs) throws IOException {
                Files.createDirectories(to.resolve(from.relativize(dir).toString()));
                return FileVisitResult.CONTINUE;
            }

            @Override
            public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) throws IOException {
                Files.copy(file, to.resolve(from.relativize(file).toString()), StandardCopyOption.REPLACE_EXISTING);
                return FileVisitResult.CONTINUE;
            }
        });
    }

    static void deleteTree(Path root) throws IOException {
        if (!Files.exists(root)) {
            return;
        }
        Files.walkFileTree(root, new SimpleFileVisitor<Path>() {
            @Override
            public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) throws IOException {
                Files.delete(file);
                return FileVisitResult.CONTINUE;
            }

            @Override
            public FileVisitResult postVisitDirectory(Path dir, IOException exc) throws IOException {
                Files.delete(dir);
                return FileVisitResult.CONTINUE;
            }
        });
    }

    private static Map<String, String> parse(String[] args) {
        Map<String, String> opts = new LinkedHashMap<String, String>();
        for (int i = 0; i < args.length; i += 2) {
            if (!args[i].startsWith("--") || i + 1 >= args.length) {
                throw new IllegalArgumentException("expected --name value pairs, got " + java.util.Arrays.toString(args));
            }
            opts.put(args[i], args[i + 1]);
        }
        return Collections.unmodifiableMap(opts);
    }

    private static String require(Map<String, String> opts, String name) {
        String v = opts.get(name);
        if (v == null) {
            throw new IllegalArgumentException("missing " + name);
        }
        return v;
    }
}
