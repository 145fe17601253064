package dev.rmqpatch.patches.build;

import dev.rmqpatch.patches.cli.ListPatches;
import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.StandardCopyOption;
import java.text.SimpleDateFormat;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Date;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TimeZone;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The patched client jars for application teams, two ways, from the patched distribution's {@code lib/} (the same
 * rewritten jars the broker runs, byte for byte): a folder {@code rocketmq-<v>-client-patched/} (lib/, pom/,
 * tools/rmqpatch-info.jar, README.md, SHA256SUMS) and a Maven repository layout under our own coordinates ({@value #GROUP_ID}, version
 * {@code <v>-rmqpatch-<project version>}) that {@code mvn install} copies into the local repository.
 *
 * <p>Which jars: nothing is listed here. The RocketMQ artifacts of the client are those {@code rocketmq-client}'s stock
 * POM reaches through compile and runtime dependencies; of those, the ones the patcher rewrote (their manifest carries
 * {@link JarPatcher#MANIFEST_ATTRIBUTE}) and every one that depends on a rewritten one (so that one swapped dependency,
 * {@code rocketmq-client}, brings the rest) get our coordinates. Each POM is stock's dependency list (versions taken
 * from stock's parent, as Maven would) with those siblings replaced by ours, plus the codec for a rewritten jar.
 */
public final class ClientDelivery {

    /** Our groupId for RocketMQ's artifacts; the artifactIds stay stock's. */
    public static final String GROUP_ID = "dev.rmqpatch.rocketmq";
    static final String STOCK_GROUP = "org.apache.rocketmq";
    /** The artifact an application depends on: the client's closure starts here. */
    static final String ROOT = "rocketmq-client";
    static final String CODEC_GROUP = "dev.rmqpatch";
    static final String CODEC_ARTIFACT = "rmqpatch-codec";
    /** Under the build directory: the Maven repository layout {@code install} copies. */
    public static final String REPO_DIR = "client-maven-repo";

    private ClientDelivery() {
    }

    /** The folder's name for a RocketMQ version. */
    public static String folderName(String rocketmqVersion) {
        return "rocketmq-" + rocketmqVersion + "-client-patched";
    }

    /** Our version of a RocketMQ artifact: "4.9.0-rmqpatch-0.1.0". */
    public static String ourVersion(String rocketmqVersion, String projectVersion) {
        return rocketmqVersion + "-rmqpatch-" + projectVersion;
    }

    public static void main(String[] args) throws Exception {
        if (args.length > 0 && (args[0].equals("--help") || args[0].equals("-h"))) {
            System.out.println("Usage: ClientDelivery --rocketmq-version V --patched-lib DIR --maven-repo DIR"
                + " --project-version V --tools-jar JAR --out DIR [--skip-patches true]\n"
                + "       ClientDelivery install --from DIR --to LOCAL_REPO [--skip-patches true]\n"
                + "Builds (at mvn package) or installs (at mvn install) rmqpatch's patched client jars.");
            return;
        }
        boolean install = args.length > 0 && args[0].equals("install");
        Map<String, String> opts = parse(args, install ? 1 : 0, install
            ? new String[] {"--from", "--to", "--skip-patches"}
            : new String[] {"--rocketmq-version", "--patched-lib", "--maven-repo", "--project-version", "--tools-jar",
                "--out", "--skip-patches"});
        if (Boolean.parseBoolean(opts.get("--skip-patches"))) {
            System.out.println("[rmqpatch] patches skipped (-Dpatches.skip=true): no patched client jars");
            return;
        }
        if (install) {
            File from = new File(require(opts, "--from"));
            File to = new File(require(opts, "--to"));
            for (String installed : install(from, to, new Date())) {
                System.out.println("[rmqpatch] installed " + installed + " into " + to);
            }
            return;
        }
        String version = require(opts, "--rocketmq-version");
        File patchedLib = new File(require(opts, "--patched-lib"));
        File mavenRepo = new File(require(opts, "--maven-repo"));
        String projectVersion = require(opts, "--project-version");
        File toolsJar = new File(require(opts, "--tools-jar"));
        File out = new File(require(opts, "--out"));
        Plan plan = plan(patchedLib, new StockPoms(mavenRepo), version, projectVersion);
        File folder = writeFolder(plan, toolsJar, out);
        writeRepository(plan, new File(out, REPO_DIR));
        System.out.println("[rmqpatch] client jars (" + ourList(plan) + "): " + folder + "; Maven "
            + GROUP_ID + ":" + ROOT + ":" + plan.ourVersion + " in " + new File(out, REPO_DIR)
            + " (mvn install puts it into the local repository)");
    }

    /** What the delivery holds: the client's RocketMQ artifacts, which of them are ours, and their POMs. */
    static final class Plan {
        final String rocketmqVersion;
        final String ourVersion;
        final String projectVersion;
        final File patchedLib;
        final File codecJar;
        /** Every RocketMQ artifact of the client's closure, from the root: artifactId to its stock POM. */
        final Map<String, StockPoms.Pom> closure = new LinkedHashMap<String, StockPoms.Pom>();
        /** artifactId to the patch labels its rewritten jar carries (absent: not rewritten). */
        final Map<String, String> rewritten = new LinkedHashMap<String, String>();
        /** The artifacts under our coordinates, in closure order. */
        final Set<String> ours = new LinkedHashSet<String>();
        /** artifactId to our POM's text. */
        final Map<String, String> poms = new LinkedHashMap<String, String>();

        Plan(String rocketmqVersion, String projectVersion, File patchedLib, File codecJar) {
            this.rocketmqVersion = rocketmqVersion;
            this.projectVersion = projectVersion;
            this.ourVersion = ourVersion(rocketmqVersion, projectVersion);
            this.patchedLib = patchedLib;
            this.codecJar = codecJar;
        }

        File jar(String artifactId) {
            return new File(patchedLib, artifactId + "-" + rocketmqVersion + ".jar");
        }
    }

    static Plan plan(File patchedLib, StockPoms stock, String version, String projectVersion) throws IOException {
        File codec = null;
        for (File f : JarPatcher.jarsIn(patchedLib)) {
            if (f.getName().startsWith(CODEC_ARTIFACT + "-")) {
                if (codec != null) {
                    throw new IOException("two codec jars in " + patchedLib + ": " + codec.getName() + ", " + f.getName());
                }
                codec = f;
            }
        }
        if (codec == null) {
            throw new IOException("no " + CODEC_ARTIFACT + " jar in " + patchedLib + " (build the patched distribution first)");
        }
        Plan plan = new Plan(version, projectVersion, patchedLib, codec);
        List<String> queue = new ArrayList<String>();
        queue.add(ROOT);
        while (!queue.isEmpty()) {
            String a = queue.remove(0);
            if (plan.closure.containsKey(a)) {
                continue;
            }
            StockPoms.Pom pom = stock.read(STOCK_GROUP, a, version);
            plan.closure.put(a, pom);
            for (StockPoms.Dep d : pom.reachingConsumers()) {
                if (d.groupId.equals(STOCK_GROUP)) {
                    if (!d.version.equals(version)) {
                        throw new IOException(a + " " + version + " depends on " + d.artifactId + " " + d.version
                            + ", not " + version + ": not a client this delivery knows how to rewrite");
                    }
                    queue.add(d.artifactId);
                }
            }
        }
        for (String a : plan.closure.keySet()) {
            File jar = plan.jar(a);
            if (!jar.isFile()) {
                throw new IOException("the patched lib/ lacks " + jar.getName() + ", which " + ROOT + " needs: " + patchedLib);
            }
            String labels = ListPatches.patchesOf(jar);
            if (labels != null) {
                plan.rewritten.put(a, labels);
                plan.ours.add(a);
            }
        }
        // Whatever depends on one of ours becomes ours too, up to the root, so that one swapped dependency suffices.
        boolean grew = true;
        while (grew) {
            grew = false;
            for (Map.Entry<String, StockPoms.Pom> e : plan.closure.entrySet()) {
                if (plan.ours.contains(e.getKey())) {
                    continue;
                }
                for (StockPoms.Dep d : e.getValue().reachingConsumers()) {
                    if (d.groupId.equals(STOCK_GROUP) && plan.ours.contains(d.artifactId)) {
                        plan.ours.add(e.getKey());
                        grew = true;
                        break;
                    }
                }
            }
        }
        Set<String> ordered = new LinkedHashSet<String>();
        for (String a : plan.closure.keySet()) {
            if (plan.ours.contains(a)) {
                ordered.add(a);
            }
        }
        plan.ours.clear();
        plan.ours.addAll(ordered);
        if (plan.ours.isEmpty()) {
            throw new IOException("no patch lands in the client's jars (" + plan.closure.keySet() + "): nothing to deliver");
        }
        for (String a : plan.ours) {
            plan.poms.put(a, pom(plan, plan.closure.get(a)));
        }
        return plan;
    }


    /** Our POM for one artifact: stock's dependencies reaching consumers, siblings swapped for ours, the codec added. */
    static String pom(Plan plan, StockPoms.Pom stock) {
        String a = stock.artifactId;
        String labels = plan.rewritten.get(a);
        StringBuilder sb = new StringBuilder();
        sb.append("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n")
            .append("<!-- Generated by rmqpatch (ClientDelivery) from ").append(STOCK_GROUP).append(':').append(a)
            .append(':').append(plan.rocketmqVersion).append("'s POM: its compile and runtime dependencies at stock's")
            .append(" versions,\n     RocketMQ siblings rmqpatch delivers replaced by ").append(GROUP_ID)
            .append(labels == null ? "" : ", and the codec the rewritten classes call").append(". -->\n")
            .append("<project xmlns=\"http://maven.apache.org/POM/4.0.0\"")
            .append(" xmlns:xsi=\"http://www.w3.org/2001/XMLSchema-instance\"")
            .append(" xsi:schemaLocation=\"http://maven.apache.org/POM/4.0.0 http://maven.apache.org/xsd/maven-4.0.0.xsd\">\n")
            .append("  <modelVersion>4.0.0</modelVersion>\n");
        element(sb, "  ", "groupId", GROUP_ID);
        element(sb, "  ", "artifactId", a);
        element(sb, "  ", "version", plan.ourVersion);
        element(sb, "  ", "packaging", "jar");
        element(sb, "  ", "name", a + " " + plan.rocketmqVersion + " (rmqpatch)");
        element(sb, "  ", "description", labels != null
            ? "Apache RocketMQ " + a + " " + plan.rocketmqVersion + " with classes rewritten by rmqpatch to call its codec: "
                + labels + ". Switch a patch off with -Drmqpatch.disable=ID (all: every one)."
            : "Apache RocketMQ " + a + " " + plan.rocketmqVersion + ", unchanged (stock bytes), depending on rmqpatch's"
                + " rewritten siblings instead of stock's.");
        sb.append("  <licenses>\n    <license>\n");
        element(sb, "      ", "name", "Apache License, Version 2.0");
        element(sb, "      ", "url", "https://www.apache.org/licenses/LICENSE-2.0.txt");
        sb.append("    </license>\n  </licenses>\n  <dependencies>\n");
        for (StockPoms.Dep d : stock.reachingConsumers()) {
            boolean ours = d.groupId.equals(STOCK_GROUP) && plan.ours.contains(d.artifactId);
            dependency(sb, ours ? GROUP_ID : d.groupId, d.artifactId, ours ? plan.ourVersion : d.version, d.type,
                d.classifier, d.scope, d.optional, d.exclusions);
        }
        if (labels != null) {
            dependency(sb, CODEC_GROUP, CODEC_ARTIFACT, plan.projectVersion, null, null, null, false,
                Collections.<String[]>emptyList());
        }
        sb.append("  </dependencies>\n</project>\n");
        return sb.toString();
    }

    private static void dependency(StringBuilder sb, String g, String a, String v, String type, String classifier,
                                   String scope, boolean optional, List<String[]> exclusions) {
        sb.append("    <dependency>\n");
        element(sb, "      ", "groupId", g);
        element(sb, "      ", "artifactId", a);
        element(sb, "      ", "version", v);
        if (type != null && !type.equals("jar")) {
            element(sb, "      ", "type", type);
        }
        if (classifier != null) {
            element(sb, "      ", "classifier", classifier);
        }
        if (scope != null && !scope.equals("compile")) {
            element(sb, "      ", "scope", scope);
        }
        if (optional) {
            element(sb, "      ", "optional", "true");
        }
        if (!exclusions.isEmpty()) {
            sb.append("      <exclusions>\n");
            for (String[] x : exclusions) {
                sb.append("        <exclusion>\n");
                element(sb, "          ", "groupId", x[0]);
                element(sb, "          ", "artifactId", x[1]);
                sb.append("        </exclusion>\n");
            }
            sb.append("      </exclusions>\n");
        }
        sb.append("    </dependency>\n");
    }

    private static void element(StringBuilder sb, String indent, String name, String value) {
        sb.append(indent).append('<').append(name).append('>').append(escape(value)).append("</").append(name).append(">\n");
    }

    static String escape(String s) {
        return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;");
    }

    /** The folder: lib/ (our jars and the codec, copied from the patched lib/), pom/, tools/, README.md, SHA256SUMS. */
    static File writeFolder(Plan plan, File toolsJar, File out) throws IOException {
        File folder = new File(out, folderName(plan.rocketmqVersion));
        DistributionBuilder.deleteTree(folder.toPath());
        File lib = new File(folder, "lib");
        File pomDir = new File(folder, "pom");
        mkdirs(lib);
        mkdirs(pomDir);
        List<File> jars = new ArrayList<File>();
        for (String a : plan.ours) {
            jars.add(plan.jar(a));
            write(new File(pomDir, a + "-" + plan.ourVersion + ".pom"), plan.poms.get(a));
        }
        jars.add(plan.codecJar);
        for (File jar : jars) {
            Files.copy(jar.toPath(), new File(lib, jar.getName()).toPath(), StandardCopyOption.REPLACE_EXISTING);
        }
        File tools = new File(folder, "tools");
        mkdirs(tools);
        Files.copy(toolsJar.toPath(), new File(tools, "rmqpatch-info.jar").toPath(), StandardCopyOption.REPLACE_EXISTING);
        write(new File(folder, "README.md"), readme(plan));
        StringBuilder sums = new StringBuilder();
        for (String dir : new String[] {"lib", "pom", "tools"}) {
            File[] files = new File(folder, dir).listFiles();
            List<String> names = new ArrayList<String>();
            for (File f : files == null ? new File[0] : files) {
                names.add(f.getName());
            }
            Collections.sort(names);
            for (String n : names) {
                sums.append(PatchRecord.sha256(new File(new File(folder, dir), n))).append("  ").append(dir).append('/')
                    .append(n).append('\n');
            }
        }
        write(new File(folder, "SHA256SUMS"), sums.toString());
        write(new File(out, folder.getName() + ".SHA256SUMS"), sums.toString());
        return folder;
    }

    static String readme(Plan plan) {
        String v = plan.rocketmqVersion;
        StringBuilder sb = new StringBuilder();
        sb.append("# rmqpatch's patched RocketMQ ").append(v).append(" client jars\n\n")
            .append("Generated by the build (ClientDelivery). For an application that uses the stock `rocketmq-client` ")
            .append(v).append(": the same rewritten jars the patched broker runs, the codec they call, and Maven POMs ")
            .append("under rmqpatch's own coordinates. No RocketMQ source was changed or recompiled; the jars keep their ")
            .append("names. The wire format is stock's.\n\n")
            .append("| jar | what it is |\n|---|---|\n");
        for (String a : plan.ours) {
            String labels = plan.rewritten.get(a);
            sb.append("| `lib/").append(plan.jar(a).getName()).append("` | ")
                .append(labels == null ? "stock bytes, unchanged (here so that its POM points at the rewritten jars)"
                    : "rewritten: " + labels).append(" |\n");
        }
        sb.append("| `lib/").append(plan.codecJar.getName()).append("` | the codec the rewritten classes call |\n\n")
            .append("## Use them\n\n")
            .append("- **A lib/ folder or class path:** replace the application's jars of the same names with these ")
            .append("and add the codec jar (keep the replaced ones to roll back).\n")
            .append("- **Maven:** `mvn install` of rmqpatch installs them into the local repository (`pom/` holds the ")
            .append("POMs, for `mvn deploy:deploy-file` to your own repository). Replace `").append(STOCK_GROUP)
            .append(":").append(ROOT).append(":").append(v).append("` with\n\n")
            .append("```xml\n<dependency>\n  <groupId>").append(GROUP_ID).append("</groupId>\n  <artifactId>")
            .append(ROOT).append("</artifactId>\n  <version>").append(plan.ourVersion)
            .append("</version>\n</dependency>\n```\n\n")
            .append("  which brings ");
        List<String> rest = new ArrayList<String>();
        for (String a : plan.ours) {
            if (!a.equals(ROOT)) {
                rest.add(GROUP_ID + ":" + a);
            }
        }
        rest.add(CODEC_GROUP + ":" + CODEC_ARTIFACT);
        sb.append(String.join(", ", rest)).append(" and stock's third-party dependencies at stock's versions. ")
            .append("Exclude `").append(STOCK_GROUP).append(":*` from any other dependency that brings stock RocketMQ ")
            .append("(a starter, say): two copies of a class on one class path is a bug, whichever wins.\n\n")
            .append("## Switch off, check, roll back\n\n")
            .append("`-Drmqpatch.disable=ID,ID` (or `all`) at JVM start runs those patches' stock code paths. ")
            .append("Each rewritten jar lists its patches in its manifest (`").append(JarPatcher.MANIFEST_ATTRIBUTE)
            .append("`) and carries its record (`").append(PatchRecord.ENTRY).append("`); ")
            .append("`java -jar tools/rmqpatch-info.jar --list-patches DIR` lists them for the jars of any folder (JDK 8+). ")
            .append("`SHA256SUMS` lists every file of `lib/`, `pom/` and `tools/` (builds are reproducible: a rebuild of ")
            .append("the same commit gives the same sums). ")
            .append("Roll back: put the stock jars (or the stock dependency) back and drop the codec jar.\n")
            .append("Or use no jar at all: `-javaagent:rmqpatch-agent.jar` applies the same patches to the stock jars. ")
            .append("See docs/application-teams.md in the rmqpatch repository.\n");
        return sb.toString();
    }

    /** The Maven repository layout: {@code <repo>/dev/rmqpatch/rocketmq/<a>/<version>/<a>-<version>.jar|pom}. */
    static void writeRepository(Plan plan, File repo) throws IOException {
        DistributionBuilder.deleteTree(repo.toPath());
        for (String a : plan.ours) {
            File dir = versionDir(repo, a, plan.ourVersion);
            mkdirs(dir);
            Files.copy(plan.jar(a).toPath(), new File(dir, a + "-" + plan.ourVersion + ".jar").toPath(),
                StandardCopyOption.REPLACE_EXISTING);
            write(new File(dir, a + "-" + plan.ourVersion + ".pom"), plan.poms.get(a));
        }
    }

    static File versionDir(File repo, String artifactId, String version) {
        return new File(new File(new File(repo, GROUP_ID.replace('.', File.separatorChar)), artifactId), version);
    }

    /**
     * Copies the repository layout {@code from} into the local repository {@code to}, as maven-install-plugin would:
     * the jar and POM, and the {@code maven-metadata-local.xml} of the artifact (its versions, merged with those
     * already there) and, for a snapshot, of the version. Returns "groupId:artifactId:version" of each.
     */
    static List<String> install(File from, File to, Date now) throws IOException {
        File group = new File(from, GROUP_ID.replace('.', File.separatorChar));
        File[] artifacts = group.listFiles();
        if (artifacts == null || artifacts.length == 0) {
            throw new IOException("nothing to install in " + group + " (run mvn package first)");
        }
        SimpleDateFormat fmt = new SimpleDateFormat("yyyyMMddHHmmss");
        fmt.setTimeZone(TimeZone.getTimeZone("UTC"));
        String stamp = fmt.format(now);
        List<String> installed = new ArrayList<String>();
        java.util.Arrays.sort(artifacts);
        for (File artifactDir : artifacts) {
            String a = artifactDir.getName();
            File[] versions = artifactDir.listFiles();
            for (File versionDir : versions == null ? new File[0] : versions) {
                if (!versionDir.isDirectory()) {
                    continue;
                }
                String v = versionDir.getName();
                File target = versionDir(to, a, v);
                mkdirs(target);
                for (String ext : new String[] {"jar", "pom"}) {
                    File f = new File(versionDir, a + "-" + v + "." + ext);
                    if (!f.isFile()) {
                        throw new IOException("missing " + f);
                    }
                    Files.copy(f.toPath(), new File(target, f.getName()).toPath(), StandardCopyOption.REPLACE_EXISTING);
                }
                if (v.endsWith("-SNAPSHOT")) {
                    write(new File(target, "maven-metadata-local.xml"), snapshotMetadata(a, v, stamp));
                }
                File artifactMeta = new File(target.getParentFile(), "maven-metadata-local.xml");
                Set<String> known = new TreeSet<String>();
                if (artifactMeta.isFile()) {
                    Matcher m = Pattern.compile("<version>([^<]+)</version>")
                        .matcher(new String(Files.readAllBytes(artifactMeta.toPath()), StandardCharsets.UTF_8));
                    while (m.find()) {
                        known.add(m.group(1).trim());
                    }
                }
                known.add(v);
                write(artifactMeta, artifactMetadata(a, known, stamp));
                installed.add(GROUP_ID + ":" + a + ":" + v);
            }
        }
        return installed;
    }

    private static String artifactMetadata(String a, Set<String> versions, String stamp) {
        StringBuilder sb = new StringBuilder("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<metadata>\n");
        sb.append("  <groupId>").append(GROUP_ID).append("</groupId>\n  <artifactId>").append(a).append("</artifactId>\n")
            .append("  <versioning>\n    <versions>\n");
        for (String v : versions) {
            sb.append("      <version>").append(escape(v)).append("</version>\n");
        }
        sb.append("    </versions>\n    <lastUpdated>").append(stamp).append("</lastUpdated>\n  </versioning>\n</metadata>\n");
        return sb.toString();
    }

    private static String snapshotMetadata(String a, String v, String stamp) {
        StringBuilder sb = new StringBuilder("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<metadata modelVersion=\"1.1.0\">\n");
        sb.append("  <groupId>").append(GROUP_ID).append("</groupId>\n  <artifactId>").append(a).append("</artifactId>\n")
            .append("  <version>").append(escape(v)).append("</version>\n  <versioning>\n")
            .append("    <snapshot>\n      <localCopy>true</localCopy>\n    </snapshot>\n")
            .append("    <lastUpdated>").append(stamp).append("</lastUpdated>\n    <snapshotVersions>\n");
        for (String ext : new String[] {"jar", "pom"}) {
            sb.append("      <snapshotVersion>\n        <extension>").append(ext).append("</extension>\n        <value>")
                .append(escape(v)).append("</value>\n        <updated>").append(stamp)
                .append("</updated>\n      </snapshotVersion>\n");
        }
        sb.append("    </snapshotVersions>\n  </versioning>\n</metadata>\n");
        return sb.toString();
    }

    private static String ourList(Plan plan) {
        List<String> names = new ArrayList<String>();
        for (String a : plan.ours) {
            names.add(a + (plan.rewritten.containsKey(a) ? "" : " (stock)"));
        }
        return String.join(", ", names);
    }

    private static void mkdirs(File dir) throws IOException {
        if (!dir.isDirectory() && !dir.mkdirs()) {
            throw new IOException("cannot create " + dir);
        }
    }

    private static void write(File f, String text) throws IOException {
        Files.write(f.toPath(), text.getBytes(StandardCharsets.UTF_8));
    }

    private static Map<String, String> parse(String[] args, int from, String[] known) {
        Map<String, String> opts = new LinkedHashMap<String, String>();
        for (int i = from; i < args.length; i += 2) {
            if (!args[i].startsWith("--") || i + 1 >= args.length) {
                throw new IllegalArgumentException("expected --name value pairs, got " + java.util.Arrays.toString(args)
                    + " (see --help)");
            }
            if (!java.util.Arrays.asList(known).contains(args[i])) {
                throw new IllegalArgumentException("unknown option " + args[i] + "; known: "
                    + java.util.Arrays.toString(known) + " (see --help)");
            }
            opts.put(args[i], args[i + 1]);
        }
        return opts;
    }

    private static String require(Map<String, String> opts, String name) {
        String v = opts.get(name);
        if (v == null) {
            throw new IllegalArgumentException("missing " + name + " (see --help)");
        }
        return v;
    }
}
