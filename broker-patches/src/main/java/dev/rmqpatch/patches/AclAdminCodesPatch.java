package dev.rmqpatch.patches;

import java.util.Collections;
import java.util.List;

import dev.rmqpatch.patches.transform.EntryHook;
import dev.rmqpatch.patches.transform.MethodEdit;

/** S8: ACL management made admin-only. Codec: {@code AclGuard.requireAdminForAclManagement}. */
final class AclAdminCodesPatch implements Patch {

    @Override
    public String id() {
        return "S8";
    }

    @Override
    public String name() {
        return "acl-admin-only";
    }

    @Override
    public String buys() {
        return "the ACL management requests (codes 50-53) need an admin account, as UPDATE_BROKER_CONFIG does";
    }

    @Override
    public String closes() {
        return "CVE-2024-23321";
    }

    @Override
    public String fixedUpstream() {
        return "5.3.0 (#7930: codes 50-52 made admin-only; 53 never)";
    }

    @Override
    public String effect() {
        return "With the ACL on, UPDATE_AND_CREATE_ACL_CONFIG, DELETE_ACL_CONFIG, GET_BROKER_CLUSTER_ACL_INFO and "
            + "UPDATE_GLOBAL_WHITE_ADDRS_CONFIG (request codes 50-53; mqadmin updateAclConfig, deleteAccessConfig, "
            + "clusterAclConfigVersion, updateGlobalWhiteAddr) need an admin account, as UPDATE_BROKER_CONFIG does: the "
            + "stock ACL check answers others 'Need admin permission for request code=..'. White-listed addresses pass "
            + "as before.";
    }

    @Override
    public String why() {
        return "4.9.0's Permission.ADMIN_CODE lacks the ACL management requests, so any account with a valid signature "
            + "can create an admin account for itself, rewrite or delete others (the broker writes plain_acl.yml), or "
            + "put its address on the global white list, which skips every later check. This is the other half of "
            + "CVE-2024-23321 (a regular account acquiring the administrator's account), whose record names 5.3.0 as "
            + "the fix; upstream made 50-52 admin-only there and never 53.";
    }

    @Override
    public String verification() {
        return "mqadmin updateAclConfig signed with a non-admin account's keys fails with 'Need admin permission for "
            + "request code=50'; with an admin account's keys it succeeds.";
    }

    @Override
    public String tests() {
        return "AclExploitIT; codec: AclGuardTest";
    }

    @Override
    public String benchmark() {
        return "none (start-up only)";
    }

    @Override
    public List<MethodEdit> edits() {
        return Collections.<MethodEdit>singletonList(
            new EntryHook(Stock.INITIAL_ACL, Codec.REQUIRE_ADMIN_FOR_ACL_MANAGEMENT));
    }
}
