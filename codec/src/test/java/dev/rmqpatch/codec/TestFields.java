package dev.rmqpatch.codec;

import java.lang.reflect.Field;

/** Tests' access to a RocketMQ object's private fields, declared in its class or any superclass. */
public final class TestFields {

    private TestFields() {
    }

    public static Field find(Class<?> type, String name) throws NoSuchFieldException {
        for (Class<?> t = type; t != null; t = t.getSuperclass()) {
            try {
                Field f = t.getDeclaredField(name);
                f.setAccessible(true);
                return f;
            } catch (NoSuchFieldException e) {
                // the superclass's
            }
        }
        throw new NoSuchFieldException(type + "." + name);
    }

    public static Object get(Object owner, String name) throws Exception {
        return find(owner.getClass(), name).get(owner);
    }

    public static <T> T get(Object owner, String name, Class<T> type) throws Exception {
        return type.cast(get(owner, name));
    }

    public static void set(Object owner, String name, Object value) throws Exception {
        find(owner.getClass(), name).set(owner, value);
    }
}
