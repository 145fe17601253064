package dev.rmqpatch.patches;

import java.util.Arrays;
import java.util.Collections;
import java.util.List;

/**
 * The holes the security patches close, as an operator of a release asks about them: open on that release's stock
 * jars, or fixed upstream (the first 4.9.x release whose stock jars close it whole), and which patches close it
 * there. What each hole lets an attacker do, and the exploit tests, are in docs/patched-broker.md; which patch applies on
 * which release is each patch's {@link Patch#on(Release)}.
 */
public enum SecurityHole {

    FILTER_SERVER_COMMAND("CVE-2023-33246", "a command run by the broker (UPDATE_BROKER_CONFIG, filter server)", "4.9.6",
        "S1", "S2"),
    NAMESRV_CONFIG_FILE("CVE-2023-37582", "a file written by the name server (UPDATE_NAMESRV_CONFIG)", "4.9.7", "S3"),
    FASTJSON_AUTOTYPE("fastjson autoType", "a class instantiated from `@type` in a header, body or config (4.9.0 and "
        + "4.9.3 ship fastjson 1.2.76; 4.9.4+ 1.2.69_noneautotype)", "4.9.4", "S5"),
    TRUSTED_LENGTHS("trusted lengths", "OutOfMemoryError from a claimed length or count (frame header: upstream's bounds "
        + "since 4.9.4; REGISTER_BROKER body, QUERY_MESSAGE: none in 4.9.x)", null, "S6"),
    CONFIG_LINE_SMUGGLING("config-line smuggling", "a protected key written through an allowed one (UPDATE_BROKER_CONFIG, "
        + "UPDATE_NAMESRV_CONFIG)", null, "S1", "S3"),
    GROUP_PATH_TRAVERSAL("group path traversal", "consume-queue files written outside the store "
        + "(CONSUMER_SEND_MSG_BACK)", null, "S9"),
    ACL_SECRETS("CVE-2024-23321", "with the ACL on, any account reads every secret or makes itself admin (4.9.8 "
        + "removed only the secret read)", null, "S7", "S8");

    private final String name;
    private final String what;
    private final String fixedIn;
    private final List<String> closedBy;

    SecurityHole(String name, String what, String fixedIn, String... closedBy) {
        this.name = name;
        this.what = what;
        this.fixedIn = fixedIn;
        this.closedBy = Collections.unmodifiableList(Arrays.asList(closedBy));
    }

    /** "CVE-2023-33246", or a short name where there is no CVE. */
    public String holeName() {
        return name;
    }

    /** What an attacker who reaches the port gets, in one line. */
    public String what() {
        return what;
    }

    /** The first 4.9.x release whose stock jars close it whole ("4.9.6"), or null when no 4.9.x does. */
    public String fixedIn() {
        return fixedIn;
    }

    /** The ids of the patches that close it (on a release, those that apply there). */
    public List<String> closedBy() {
        return closedBy;
    }

    /** Whether the release's stock jars close it already. */
    public boolean fixedUpstreamOn(Release release) {
        return fixedIn != null && compare(release.version(), fixedIn) >= 0;
    }

    static int compare(String a, String b) {
        String[] x = a.split("\\.");
        String[] y = b.split("\\.");
        for (int i = 0; i < Math.max(x.length, y.length); i++) {
            int d = Integer.parseInt(i < x.length ? x[i] : "0") - Integer.parseInt(i < y.length ? y[i] : "0");
            if (d != 0) {
                return d;
            }
        }
        return 0;
    }
}
