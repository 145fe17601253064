package dev.rmqpatch.codec.security;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.apache.rocketmq.acl.common.Permission;
import org.apache.rocketmq.common.protocol.RequestCode;
import org.apache.rocketmq.common.protocol.ResponseCode;
import org.apache.rocketmq.remoting.protocol.RemotingCommand;
import org.junit.jupiter.api.Test;

class AclGuardTest {

    @Test
    void aclManagementBecomesAdminOnly() {
        for (int code : AclGuard.ADMIN_ONLY) {
            Permission.ADMIN_CODE.remove(code);
            assertFalse(Permission.needAdminPerm(code), "stock 4.9.0 lets any account send " + code);
        }
        assertFalse(AclGuard.requireAdminForAclManagement(null), "the stock initialAcl runs after the hook");
        for (int code : new int[] {50, 51, 52, 53}) {
            assertTrue(Permission.needAdminPerm(code), "admin only: " + code);
        }
        assertTrue(Permission.needAdminPerm(RequestCode.UPDATE_BROKER_CONFIG), "stock's admin codes stay");
        assertFalse(Permission.needAdminPerm(RequestCode.SEND_MESSAGE));
        assertFalse(Permission.needAdminPerm(RequestCode.GET_BROKER_CLUSTER_ACL_CONFIG), "S7 refuses 54 outright instead");
    }

    @Test
    void clusterAclConfigIsRefusedNamingTheCve() {
        RemotingCommand request = RemotingCommand.createRequestCommand(RequestCode.GET_BROKER_CLUSTER_ACL_CONFIG, null);
        RemotingCommand response = AclGuard.refuseClusterAclConfig(null, null, request);
        assertEquals(ResponseCode.NO_PERMISSION, response.getCode());
        assertTrue(response.getRemark().contains("CVE-2024-23321"), response.getRemark());
        assertEquals(null, response.getBody(), "no ACL data in the answer");
    }
}
