package dev.rmqpatch.agent;

import java.io.ByteArrayOutputStream;
import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.lang.instrument.Instrumentation;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.DirectoryStream;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.jar.Attributes;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;
import java.util.jar.JarInputStream;
import java.util.jar.JarOutputStream;
import java.util.jar.Manifest;

/**
 * Makes the codec reachable from the loader that defines the patched classes, so that the codec, in turn, links
 * against that loader's RocketMQ (the codec names RocketMQ types: a codec defined by any other loader would fail or
 * see other classes).
 *
 * <p>The codec jar travels inside the agent jar as a resource ({@value #CODEC_RESOURCE}), not as classes: were its
 * classes on the system class path under their names, a child loader that delegates parent-first (Spring Boot's
 * LaunchedURLClassLoader, an application server's) would take them from the application class loader, where RocketMQ
 * is not. For each loader whose classes the agent patches it is written to a fresh private temporary folder (deleted
 * at exit), with a manifest that lists the patches applied ({@code RocketMQ-Patches}, as a rewritten jar's does), which
 * is what the start-up report reads ({@link #privateFolder}); then it is added to that loader's own search path:
 * {@link Instrumentation#appendToSystemClassLoaderSearch} for the application class loader, {@code addURL} for any
 * other {@link URLClassLoader} (on JDK 9+ the agent first opens {@code java.net} to itself through
 * {@code Instrumentation.redefineModule}). Any other kind of loader, or one that already sees a codec, is refused.
 */
final class CodecAccess {

    /** Where the agent jar carries the codec jar (a build copies it there). */
    static final String CODEC_RESOURCE = "META-INF/rmqpatch/rmqpatch-codec.jar";
    /** A codec class: whether a loader sees the codec. */
    static final String PROBE = "dev/rmqpatch/codec/switches/PatchSwitches.class";
    /** The rewritten jars' manifest attribute (the codec's PatchSwitches.MANIFEST_ATTRIBUTE): the start-up report's. */
    static final String MANIFEST_ATTRIBUTE = "RocketMQ-Patches";

    private static final String FOLDER_PREFIX = "rmqpatch-agent-";

    private final Instrumentation inst;
    private final Map<String, File> written = new HashMap<String, File>();
    private boolean javaNetOpened;

    CodecAccess(Instrumentation inst) {
        this.inst = inst;
    }

    /** Null once {@code loader} sees the codec (a copy listing {@code labels}); otherwise why it cannot. */
    String makeVisible(ClassLoader loader, List<String> labels) throws IOException {
        URL already = loader.getResource(PROBE);
        if (already != null) {
            return "a codec is already visible to " + PatchTransformer.describe(loader) + " (" + already + ")";
        }
        File jar = codecJar(labels);
        if (loader == ClassLoader.getSystemClassLoader()) {
            inst.appendToSystemClassLoaderSearch(new JarFile(jar));
        } else if (loader instanceof URLClassLoader) {
            String why = addUrl((URLClassLoader) loader, jar.toURI().toURL());
            if (why != null) {
                return why;
            }
        } else {
            return PatchTransformer.describe(loader) + " is neither the application class loader nor a URLClassLoader,"
                + " so the agent cannot add the codec to it";
        }
        URL now = loader.getResource(PROBE);
        if (now == null || !now.toString().contains(jar.getName())) {
            return "the codec added to " + PatchTransformer.describe(loader) + " is not what it finds (" + now + ")";
        }
        return null;
    }

    private String addUrl(URLClassLoader loader, URL url) {
        try {
            openJavaNet();
            Method addUrl = URLClassLoader.class.getDeclaredMethod("addURL", URL.class);
            addUrl.setAccessible(true);
            addUrl.invoke(loader, url);
            return null;
        } catch (InvocationTargetException e) {
            return "cannot add the codec to " + PatchTransformer.describe(loader) + ": " + e.getCause();
        } catch (Exception e) {
            return "cannot add the codec to " + PatchTransformer.describe(loader) + ": " + e;
        }
    }

    /** JDK 9+: lets the agent's module call URLClassLoader.addURL; on JDK 8 (no modules) nothing to do. */
    private void openJavaNet() throws Exception {
        if (javaNetOpened) {
            return;
        }
        Method getModule;
        try {
            getModule = Class.class.getMethod("getModule");
        } catch (NoSuchMethodException jdk8) {
            javaNetOpened = true;
            return;
        }
        Class<?> moduleClass = Class.forName("java.lang.Module");
        Object javaBase = getModule.invoke(URLClassLoader.class);
        Object self = getModule.invoke(CodecAccess.class);
        Method redefine = Instrumentation.class.getMethod("redefineModule", moduleClass, Set.class, Map.class,
            Map.class, Set.class, Map.class);
        redefine.invoke(inst, javaBase, Collections.emptySet(), Collections.emptyMap(),
            Collections.singletonMap("java.net", Collections.singleton(self)), Collections.emptySet(),
            Collections.emptyMap());
        javaNetOpened = true;
    }

    /** The codec jar with {@code labels} in its manifest, written once per set of labels into a private folder. */
    private File codecJar(List<String> labels) throws IOException {
        String list = join(labels);
        File jar = written.get(list);
        if (jar != null) {
            return jar;
        }
        File dir = privateFolder();
        dir.deleteOnExit();
        jar = new File(dir, "rmqpatch-codec.jar");
        jar.deleteOnExit();
        InputStream in = CodecAccess.class.getClassLoader().getResourceAsStream(CODEC_RESOURCE);
        if (in == null) {
            throw new IOException("the agent jar lacks " + CODEC_RESOURCE);
        }
        try {
            write(new JarInputStream(in), list, jar);
        } finally {
            in.close();
        }
        written.put(list, jar);
        return jar;
    }

    /**
     * A new folder under java.io.tmpdir that only this user can enter. Not Files.createTempDirectory: its name comes
     * from a SecureRandom, whose first use on JDK 8 can block or spin for seconds seeding itself (small VMs). The name
     * needs no secret: the folder is created new (an existing one, or a link, fails and the next name is tried) and
     * closed to others before the jar is written into it. It carries the process id, so that the next agent removes
     * it if this JVM is killed before its exit hooks delete it.
     */
    static File privateFolder() throws IOException {
        Path tmp = Paths.get(System.getProperty("java.io.tmpdir"));
        String pid = pid();
        if (pid != null) {
            removeStale(tmp);
        }
        boolean posix = FileSystems.getDefault().supportedFileAttributeViews().contains("posix");
        long seed = System.nanoTime() ^ System.identityHashCode(new Object());
        for (int attempt = 0; attempt < 100; attempt++) {
            long name = (seed + attempt * 0x9E3779B97F4A7C15L) & Long.MAX_VALUE;
            Path dir = tmp.resolve(FOLDER_PREFIX + (pid == null ? "" : pid + "-") + Long.toHexString(name));
            try {
                if (posix) {
                    Files.createDirectory(dir,
                        PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
                } else {
                    Files.createDirectory(dir);
                }
                return dir.toFile();
            } catch (FileAlreadyExistsException taken) {
                // someone else's, or an earlier JVM's: try another name
            }
        }
        throw new IOException("cannot create a folder for the codec jar under " + tmp);
    }

    /** This JVM's process id where /proc tells it (Linux), else null. */
    private static String pid() {
        try {
            String name = new File("/proc/self").getCanonicalFile().getName();
            return name.matches("[0-9]+") ? name : null;
        } catch (IOException e) {
            return null;
        }
    }

    /**
     * Removes the folders of agents whose JVM has gone without its exit hooks (killed): named with a process id that
     * /proc no longer has. Another user's folder cannot be entered and is left; so is anything but the one jar.
     */
    private static void removeStale(Path tmp) {
        try (DirectoryStream<Path> folders = Files.newDirectoryStream(tmp, FOLDER_PREFIX + "*")) {
            for (Path dir : folders) {
                String[] parts = dir.getFileName().toString().substring(FOLDER_PREFIX.length()).split("-");
                if (parts.length != 2 || !parts[0].matches("[0-9]+") || Files.exists(Paths.get("/proc", parts[0]))) {
                    continue;
                }
                try {
                    Files.deleteIfExists(dir.resolve("rmqpatch-codec.jar"));
                    Files.deleteIfExists(dir);
                } catch (IOException | SecurityException notOurs) {
                    // not ours, or not only the jar: left alone
                }
            }
        } catch (IOException | RuntimeException e) {
            // no clean-up then; the folder of this JVM is still made
        }
    }

    static void write(JarInputStream in, String labels, File out) throws IOException {
        Manifest manifest = in.getManifest() == null ? new Manifest() : new Manifest(in.getManifest());
        Attributes main = manifest.getMainAttributes();
        if (main.getValue(Attributes.Name.MANIFEST_VERSION) == null) {
            main.put(Attributes.Name.MANIFEST_VERSION, "1.0");
        }
        main.putValue(MANIFEST_ATTRIBUTE, labels);
        OutputStream fos = Files.newOutputStream(out.toPath(), StandardOpenOption.CREATE_NEW);
        JarOutputStream jos = new JarOutputStream(fos, manifest);
        try {
            byte[] buf = new byte[8192];
            for (JarEntry e = in.getNextJarEntry(); e != null; e = in.getNextJarEntry()) {
                jos.putNextEntry(new JarEntry(e.getName()));
                ByteArrayOutputStream bytes = new ByteArrayOutputStream();
                for (int n; (n = in.read(buf)) > 0; ) {
                    bytes.write(buf, 0, n);
                }
                jos.write(bytes.toByteArray());
                jos.closeEntry();
            }
        } finally {
            jos.close();
        }
    }

    private static String join(List<String> items) {
        StringBuilder sb = new StringBuilder();
        for (String s : items) {
            sb.append(sb.length() == 0 ? "" : ", ").append(s);
        }
        return sb.toString();
    }
}
