package dev.rmqpatch.patches;

/**
 * The RocketMQ releases each patch declares itself for ({@link Patch#on(Release)}), oldest first. A release not
 * here (4.9.1, 4.9.2, 4.9.5, 4.9.6, 5.x) has no declarations: patch-lib refuses it, the plan says so.
 */
public enum Release {
    V4_9_0("4.9.0"),
    V4_9_3("4.9.3"),
    V4_9_4("4.9.4"),
    V4_9_7("4.9.7"),
    V4_9_8("4.9.8");

    private final String version;

    Release(String version) {
        this.version = version;
    }

    /** "4.9.7". */
    public String version() {
        return version;
    }

    /** This release or a later one of the list. */
    public boolean atLeast(Release other) {
        return ordinal() >= other.ordinal();
    }

    /** The release of that version ("4.9.7"), or null when the patches declare nothing for it. */
    public static Release of(String version) {
        for (Release r : values()) {
            if (r.version.equals(version)) {
                return r;
            }
        }
        return null;
    }

    /** The release {@code MQVersion.Version} names that way ("V4_9_7"), or null when the patches declare nothing for it. */
    public static Release ofMqVersion(String name) {
        return name == null ? null : of(name.replaceFirst("^V", "").replace('_', '.'));
    }

    /** As {@code MQVersion.Version} names it: "V4_9_7". */
    public String mqVersionName() {
        return "V" + version.replace('.', '_');
    }

    /** "4.9.0, 4.9.3, 4.9.4, 4.9.7, 4.9.8", for messages. */
    public static String supported() {
        StringBuilder sb = new StringBuilder();
        for (Release r : values()) {
            sb.append(sb.length() == 0 ? "" : ", ").append(r.version);
        }
        return sb.toString();
    }
}
