package dev.rmqpatch.patches;

import java.io.IOException;
import java.io.InputStream;

/**
 * Defines a driver class (and its nested classes) from the test classes over a lib/ loader, so the driver links against
 * that lib/'s RocketMQ and netty, not the test class path's: for tests that run the same scenario on stock and patched
 * jars in one JVM ({@link LibLoaders}). {@link DriverShared}, what the drivers share, is defined the same way.
 */
final class DriverLoader extends ClassLoader implements AutoCloseable {

    private static final String SHARED = DriverShared.class.getName();
    private final String driver;

    DriverLoader(ClassLoader parent, String driverClassName) {
        super(parent);
        this.driver = driverClassName;
    }

    @Override
    protected Class<?> loadClass(String name, boolean resolve) throws ClassNotFoundException {
        if (!name.startsWith(driver) && !name.equals(SHARED)) {
            return super.loadClass(name, resolve);
        }
        synchronized (getClassLoadingLock(name)) {
            Class<?> c = findLoadedClass(name);
            if (c == null) {
                try (InputStream in = DriverLoader.class.getClassLoader().getResourceAsStream(name.replace('.', '/') + ".class")) {
                    if (in == null) {
                        throw new ClassNotFoundException(name);
                    }
                    byte[] bytes = in.readAllBytes();
                    c = defineClass(name, bytes, 0, bytes.length);
                } catch (IOException e) {
                    throw new ClassNotFoundException(name, e);
                }
            }
            return c;
        }
    }

    @Override
    public void close() {
    }
}
