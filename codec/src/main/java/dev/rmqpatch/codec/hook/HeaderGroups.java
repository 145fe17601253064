package dev.rmqpatch.codec.hook;

import dev.rmqpatch.codec.header.HeaderCodecs;

/**
 * Which header classes have a hand-written codec, recognised by name: this class names no rocketmq-common class, so
 * the remoting hooks can ask it about any header (a remoting-only application's own headers included) without loading
 * rocketmq-common. Only for a class named here is {@code HeaderCodecs} (which names the common header classes) loaded,
 * and then rocketmq-common is on the class path, since the header in hand is one of its classes.
 * HeaderCodecsTest checks that these names are exactly the classes of {@code HeaderCodecs}' two groups.
 */
public final class HeaderGroups {

    static final int NONE = 0;
    static final int SEND = 1;
    static final int PULL = 2;

    private static final String HEADER = "org.apache.rocketmq.common.protocol.header.";

    /** The send path's header classes (P1 decode, P4 encode). */
    public static final String[] SEND_PATH = {
        HEADER + "SendMessageRequestHeaderV2", HEADER + "SendMessageResponseHeader", HEADER + "SendMessageRequestHeader",
    };

    /** The pull path's header classes (P10 decode, P11 encode). */
    public static final String[] PULL_PATH = {
        HEADER + "PullMessageRequestHeader", HEADER + "PullMessageResponseHeader",
    };

    private static final ClassValue<Integer> GROUP = new ClassValue<Integer>() {
        @Override
        protected Integer computeValue(Class<?> type) {
            String name = type.getName();
            for (String s : SEND_PATH) {
                if (s.equals(name)) {
                    return SEND;
                }
            }
            for (String p : PULL_PATH) {
                if (p.equals(name)) {
                    return PULL;
                }
            }
            return NONE;
        }
    };

    private HeaderGroups() {
    }

    static int of(Class<?> headerClass) {
        return GROUP.get(headerClass);
    }

    /** The codecs, loaded at the first header that has one (never in a JVM that never sees such a header). */
    static HeaderCodecLookup codecs() {
        return Loaded.LOOKUP;
    }

    /**
     * The one reference from the remoting hooks to the header codecs, which name rocketmq-common's classes: the JVM
     * loads this holder, and through it HeaderCodecs, only when {@link #codecs} first runs, after {@link #of} matched a
     * header class by name, so a header of rocketmq-common is in hand. (No reflection: the codec's main classes use
     * none. PatchedJarDependenciesIT knows this edge as the gate it is.)
     */
    private static final class Loaded {
        static final HeaderCodecLookup LOOKUP = new HeaderCodecs.Lookup();
    }
}
