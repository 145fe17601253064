package dev.rmqpatch.bench.auth;

import dev.rmqpatch.bench.lang.Jdk8;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFileAttributeView;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.EnumSet;
import java.util.Set;

/**
 * Files that hold a secret (agent token, JMX credentials): written owner-only from the first byte, and read only when
 * no one but the owner can read them, as ssh treats private keys. A secret that others could read has leaked already;
 * refusing it makes the operator fix the permissions instead of benchmarking with a compromised credential.
 */
public final class SecretFiles {
    private static final Set<PosixFilePermission> OWNER_ONLY = EnumSet.of(PosixFilePermission.OWNER_READ, PosixFilePermission.OWNER_WRITE);

    private SecretFiles() {
    }

    /** Creates FILE with mode 0600 (it must not exist: an existing file could be someone else's link) and writes TEXT. */
    public static void writeNew(Path file, String text) throws IOException {
        if (Files.getFileStore(file.toAbsolutePath().getParent()).supportsFileAttributeView(PosixFileAttributeView.class)) {
            Files.createFile(file, PosixFilePermissions.asFileAttribute(OWNER_ONLY));
        } else {
            Files.createFile(file);
        }
        Files.write(file, text.getBytes(StandardCharsets.UTF_8));
    }

    /** Reads FILE after checking that it is a regular file no one but its owner can read or write. */
    public static String read(Path file, String what) throws IOException {
        if (!Files.isRegularFile(file)) {
            throw new IOException(what + " " + file + " does not exist or is not a regular file");
        }
        checkOwnerOnly(file, what);
        return new String(Files.readAllBytes(file), StandardCharsets.UTF_8);
    }

    /** Throws naming the file and the fix when group or others have any permission on it. */
    public static void checkOwnerOnly(Path file, String what) throws IOException {
        PosixFileAttributeView posix = Files.getFileAttributeView(file, PosixFileAttributeView.class);
        if (posix == null) {
            return;
        }
        Set<PosixFilePermission> perms = posix.readAttributes().permissions();
        Set<PosixFilePermission> others = EnumSet.copyOf(perms);
        others.removeAll(EnumSet.of(PosixFilePermission.OWNER_READ, PosixFilePermission.OWNER_WRITE, PosixFilePermission.OWNER_EXECUTE));
        if (!others.isEmpty()) {
            throw new IOException(what + " " + file + " is accessible by group or others (" + PosixFilePermissions.toString(perms)
                + "); it holds a secret: chmod 600 " + file + " (and replace the secret if others may have read it)");
        }
    }
}
