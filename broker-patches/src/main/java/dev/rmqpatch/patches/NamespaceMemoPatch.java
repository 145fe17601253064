package dev.rmqpatch.patches;

import java.util.Collections;
import java.util.List;

import dev.rmqpatch.patches.transform.MethodEdit;
import dev.rmqpatch.patches.transform.ReplaceCall;

/**
 * P35. Target: {@code ClientConfig.getNamespace()} in rocketmq-client, its call of
 * {@code NameServerAddressUtils.validateInstanceEndpoint(namesrvAddr)} (rocketmq-common), made whenever no namespace is
 * set: three times for every message a producer sends.
 * Replacement: codec's {@code InstanceEndpoints.validateInstanceEndpoint}, which keeps the answer for the last address
 * it matched and runs stock's method for any other.
 * Why: the check is a regular-expression match over an address that rarely changes; in this project's JDK 8 producer
 * profile it was 1.6% of the patched producer's CPU samples.
 * Tests: see {@link #tests()}; measured: see {@link #benchmark()}.
 */
final class NamespaceMemoPatch implements Patch {

    @Override
    public String id() {
        return "P35";
    }

    @Override
    public String name() {
        return "namespace-memo";
    }

    @Override
    public String buys() {
        return "a client's namespace look-up without a regular-expression match of the name-server address per call "
            + "(three per message sent)";
    }

    @Override
    public String effect() {
        return "ClientConfig.getNamespace, with no namespace set, asks whether the name-server address names a cloud "
            + "instance (MQ_INST_..._...) by stock's regular expression only when the address differs from the one it "
            + "last asked about; for the same address it reuses that answer. Namespaces, the addresses and every "
            + "answer are stock's.";
    }

    @Override
    public String why() {
        return "A producer asks for its namespace three times per synchronous send (withNamespace of the topic, the "
            + "instance-id check in sendKernelImpl, the topic put back in its finally) and a push consumer once "
            + "per batch it hands to the listener (resetRetryAndNamespace); each ask matches a regular expression "
            + "over the same address. In issue 28's JDK 8 producer profile "
            + "(docs/results/clients-2026-11-26-producer-p26-jdk8/flame-patched@8.html) "
            + "NameServerAddressUtils.validateInstanceEndpoint was 1.6% of the patched producer's CPU samples.";
    }

    @Override
    public String verification() {
        return "getNamespace returns what stock returns for every address and namespace, also after setNamesrvAddr "
            + "changes the address (an instance endpoint's id, or null); a producer's CPU profile no longer shows "
            + "java.util.regex under ClientConfig.getNamespace.";
    }

    @Override
    public String tests() {
        return "PatchedClassesIT; codec: InstanceEndpointsTest";
    }

    @Override
    public String benchmark() {
        return "NameChecksBenchmark";
    }

    @Override
    public ReleaseFit on(Release release) {
        return release.atLeast(Release.V4_9_3) ? ReleaseFit.upstream(
            "4.9.3's ClientConfig.getNamespace keeps namespaceInitialized, so the endpoint "
            + "is matched once (read 4.9.3, 4.9.4, 4.9.8; 4.9.7's client sources not read)") : ReleaseFit.APPLIES;
    }

    @Override
    public List<MethodEdit> edits() {
        return Collections.<MethodEdit>singletonList(
            new ReplaceCall(Stock.CLIENT_CONFIG_GET_NAMESPACE, Stock.VALIDATE_INSTANCE_ENDPOINT,
                Codec.INSTANCE_ENDPOINT_MEMO, 1));
    }
}
