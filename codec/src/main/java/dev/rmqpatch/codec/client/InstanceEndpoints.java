package dev.rmqpatch.codec.client;

import org.apache.rocketmq.common.utils.NameServerAddressUtils;

/**
 * P35. {@code ClientConfig.getNamespace()} runs, when no namespace is set, the regular expression of
 * {@code NameServerAddressUtils.validateInstanceEndpoint} over the name-server address to see whether it names a
 * cloud instance ({@code MQ_INST_..._...}); a producer calls it three times for every message it sends
 * ({@code withNamespace} of the topic in {@code send}, the instance-id check in {@code sendKernelImpl}, the topic put
 * back in its {@code finally}), once more with a send hook. The address rarely changes, so the answer for the last
 * address is kept: an equal address gets the same answer without the match; any other (a new one set with
 * {@code setNamesrvAddr}, or another client's) is matched by stock's method and becomes the one kept.
 */
public final class InstanceEndpoints {

    /** The last address matched and its answer, published together. */
    private static final class Last {
        final String endpoint;
        final boolean instance;

        Last(String endpoint, boolean instance) {
            this.endpoint = endpoint;
            this.instance = instance;
        }
    }

    private static volatile Last last;

    private InstanceEndpoints() {
    }

    /** Stock's {@code NameServerAddressUtils.validateInstanceEndpoint(endpoint)}, remembered for the last address. */
    public static boolean validateInstanceEndpoint(String endpoint) {
        Last l = last;
        if (l != null && l.endpoint.equals(endpoint)) {
            return l.instance;
        }
        boolean instance = NameServerAddressUtils.validateInstanceEndpoint(endpoint);
        last = new Last(endpoint, instance);
        return instance;
    }
}
