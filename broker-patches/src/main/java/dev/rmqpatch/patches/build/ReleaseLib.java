package dev.rmqpatch.patches.build;

import java.io.File;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.jar.Attributes;
import java.util.jar.JarFile;
import java.util.jar.Manifest;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.zip.ZipEntry;

import dev.rmqpatch.patches.transform.MqVersionFile;

/**
 * The RocketMQ release a broker's lib/ folder holds, told from the jars themselves: {@code MQVersion.CURRENT_VERSION}
 * read from rocketmq-common's class file ({@link MqVersionFile}, the agent's reader), cross-checked with every RocketMQ
 * jar's file name and its manifest's {@code Implementation-Version}. Anything that does not agree is an error naming
 * the jars: no RocketMQ jar, no rocketmq-common, two releases, a constant other than the names, jars rmqpatch has
 * rewritten already.
 */
public final class ReleaseLib {

    /** "rocketmq-broker-4.9.7.jar": artifact and version. */
    private static final Pattern JAR_NAME = Pattern.compile("(rocketmq-[a-z0-9]+(?:-[a-z][a-z0-9]*)*)-(\\d+\\.\\d+\\.\\d+[A-Za-z0-9.-]*)\\.jar");

    /**
     * RocketMQ projects with their own version numbers that a 5.x lib/ holds next to the release's jars; they say
     * nothing about the release.
     */
    private static final Set<String> OWN_VERSIONS = new LinkedHashSet<String>(Arrays.asList(
        "rocketmq-proto", "rocketmq-rocksdb", "rocketmq-client-java", "rocketmq-dashboard", "rocketmq-exporter"));

    /** A lib/ folder whose release cannot be told, or is told two ways. */
    public static final class NotRecognised extends Exception {
        private static final long serialVersionUID = 1L;

        NotRecognised(String message) {
            super(message);
        }
    }

    private final File dir;
    private final String release;
    private final String constant;
    private final List<File> jars;
    private final Map<String, File> rocketmqJars;

    private ReleaseLib(File dir, String release, String constant, List<File> jars, Map<String, File> rocketmqJars) {
        this.dir = dir;
        this.release = release;
        this.constant = constant;
        this.jars = jars;
        this.rocketmqJars = rocketmqJars;
    }

    /**
     * Reads {@code dir}'s jars.
     *
     * @throws IOException    when the folder or a jar cannot be read
     * @throws NotRecognised  when the jars do not name one release the same way everywhere
     */
    public static ReleaseLib of(File dir) throws IOException, NotRecognised {
        List<File> jars = JarPatcher.jarsIn(dir);
        Map<String, File> rocketmq = new TreeMap<String, File>();
        Map<String, Set<String>> jarsByVersion = new TreeMap<String, Set<String>>();
        List<String> rewritten = new ArrayList<String>();
        File common = null;
        for (File jar : jars) {
            Matcher m = JAR_NAME.matcher(jar.getName());
            if (!m.matches() || OWN_VERSIONS.contains(m.group(1))) {
                continue;
            }
            if (rocketmq.containsKey(m.group(1))) {
                throw new NotRecognised("two " + m.group(1) + " jars in " + dir + ": " + rocketmq.get(m.group(1)).getName()
                    + " and " + jar.getName());
            }
            rocketmq.put(m.group(1), jar);
            note(jarsByVersion, m.group(2), jar.getName());
            JarFile jf = new JarFile(jar);
            try {
                Manifest mf = jf.getManifest();
                Attributes main = mf == null ? null : mf.getMainAttributes();
                String implementation = main == null ? null : main.getValue(Attributes.Name.IMPLEMENTATION_VERSION);
                if (implementation != null) {
                    note(jarsByVersion, implementation, jar.getName() + " (manifest)");
                }
                if (main != null && main.getValue(JarPatcher.MANIFEST_ATTRIBUTE) != null) {
                    rewritten.add(jar.getName());
                }
            } finally {
                jf.close();
            }
            if (m.group(1).equals("rocketmq-common")) {
                common = jar;
            }
        }
        if (rocketmq.isEmpty()) {
            throw new NotRecognised("no RocketMQ jars (rocketmq-<module>-<version>.jar) in " + dir);
        }
        if (!rewritten.isEmpty()) {
            throw new NotRecognised("jars rewritten by rmqpatch already (" + JarPatcher.MANIFEST_ATTRIBUTE
                + " in the manifest) in " + dir + ": " + rewritten + "; give the stock lib/");
        }
        if (jarsByVersion.size() > 1) {
            throw new NotRecognised("mixed RocketMQ releases in " + dir + ": " + describe(jarsByVersion));
        }
        if (common == null) {
            throw new NotRecognised("no rocketmq-common jar in " + dir + ", so no MQVersion to read the release from (jars: "
                + rocketmq.keySet() + ")");
        }
        String constant = MqVersionFile.versionOf(read(common, MqVersionFile.MQ_VERSION + ".class"));
        if (constant == null) {
            throw new NotRecognised(common.getName() + " has no MQVersion whose CURRENT_VERSION names a release");
        }
        String release = MqVersionFile.release(constant);
        String named = jarsByVersion.keySet().iterator().next();
        if (!release.equals(named)) {
            throw new NotRecognised("mixed RocketMQ releases in " + dir + ": MQVersion.CURRENT_VERSION in "
                + common.getName() + " is " + constant + " (" + release + "), the jars say " + named + " ("
                + describe(jarsByVersion) + ")");
        }
        return new ReleaseLib(dir, release, constant, Collections.unmodifiableList(jars),
            Collections.unmodifiableMap(rocketmq));
    }

    private static byte[] read(File jar, String entry) throws IOException {
        JarFile jf = new JarFile(jar);
        try {
            ZipEntry e = jf.getEntry(entry);
            if (e == null) {
                return null;
            }
            return dev.rmqpatch.patches.transform.ClassBytes.readFully(jf.getInputStream(e));
        } finally {
            jf.close();
        }
    }

    private static void note(Map<String, Set<String>> map, String key, String value) {
        if (!map.containsKey(key)) {
            map.put(key, new LinkedHashSet<String>());
        }
        map.get(key).add(value);
    }

    private static String describe(Map<String, Set<String>> jarsByVersion) {
        StringBuilder sb = new StringBuilder();
        for (Map.Entry<String, Set<String>> e : jarsByVersion.entrySet()) {
            sb.append(sb.length() == 0 ? "" : "; ").append(e.getKey()).append(": ").append(e.getValue());
        }
        return sb.toString();
    }

    /** The folder read. */
    public File dir() {
        return dir;
    }

    /** "4.9.7". */
    public String release() {
        return release;
    }

    /** The {@code MQVersion.Version} constant, "V4_9_7". */
    public String mqVersionConstant() {
        return constant;
    }

    /** Every jar of the folder, sorted by name. */
    public List<File> jars() {
        return jars;
    }

    /** Artifact ("rocketmq-broker") to its jar, for the release's own jars. */
    public Map<String, File> rocketmqJars() {
        return rocketmqJars;
    }
}
