package dev.rmqpatch.patches;

import java.util.Collections;
import java.util.List;

import dev.rmqpatch.patches.transform.EntryHook;
import dev.rmqpatch.patches.transform.MethodEdit;

/** S7: GET_BROKER_CLUSTER_ACL_CONFIG refused. Codec: {@code AclGuard.refuseClusterAclConfig}. */
final class AclConfigLeakPatch implements Patch {

    @Override
    public String id() {
        return "S7";
    }

    @Override
    public String name() {
        return "acl-config-leak";
    }

    @Override
    public String buys() {
        return "GET_BROKER_CLUSTER_ACL_CONFIG answers NO_PERMISSION instead of every account's secret key";
    }

    @Override
    public String closes() {
        return "CVE-2024-23321";
    }

    @Override
    public String fixedUpstream() {
        return "handler removed in 4.9.8 (#7653), 5.2.0 (#7486); the CVE record names 5.3.0";
    }

    @Override
    public String effect() {
        return "GET_BROKER_CLUSTER_ACL_CONFIG (request code 54; mqadmin getAccessConfigSubCommand) answers NO_PERMISSION "
            + "with a remark naming CVE-2024-23321, and the broker log names the caller. The ACL file on the broker host "
            + "(conf/plain_acl.yml) is where accounts are read; GET_BROKER_CLUSTER_ACL_INFO still gives its version.";
    }

    @Override
    public String why() {
        return "With the ACL on, stock answers this request from any account that passes the ACL (or any white-listed "
            + "address) with every account's access and secret keys, admin accounts included (CVE-2024-23321). "
            + "Upstream removed the handler.";
    }

    @Override
    public String verification() {
        return "mqadmin getAccessConfigSubCommand -b HOST:PORT fails with NO_PERMISSION naming CVE-2024-23321.";
    }

    @Override
    public String tests() {
        return "AclExploitIT";
    }

    @Override
    public String benchmark() {
        return "none (admin request, not on the message path)";
    }

    @Override
    public ReleaseFit on(Release release) {
        return release.atLeast(Release.V4_9_8) ? ReleaseFit.upstream(
            "4.9.8's AdminBrokerProcessor has no GET_BROKER_CLUSTER_ACL_CONFIG "
            + "handler (read; #7653)") : ReleaseFit.APPLIES;
    }

    @Override
    public List<MethodEdit> edits() {
        return Collections.<MethodEdit>singletonList(
            new EntryHook(Stock.GET_BROKER_CLUSTER_ACL_CONFIG, Codec.REFUSE_CLUSTER_ACL_CONFIG));
    }
}
