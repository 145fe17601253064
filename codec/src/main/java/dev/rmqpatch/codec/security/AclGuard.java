package dev.rmqpatch.codec.security;

import java.util.Arrays;
import java.util.Collections;
import java.util.List;

import io.netty.channel.ChannelHandlerContext;
import org.apache.rocketmq.acl.common.Permission;
import org.apache.rocketmq.common.constant.LoggerName;
import org.apache.rocketmq.common.protocol.RequestCode;
import org.apache.rocketmq.common.protocol.ResponseCode;
import org.apache.rocketmq.logging.InternalLogger;
import org.apache.rocketmq.logging.InternalLoggerFactory;
import org.apache.rocketmq.remoting.common.RemotingHelper;
import org.apache.rocketmq.remoting.protocol.RemotingCommand;

/**
 * The broker ACL's two holes in 4.9.0.
 * <ul>
 * <li>S7, CVE-2024-23321: GET_BROKER_CLUSTER_ACL_CONFIG answers any account that passes the ACL (or any address on
 * the global white list) with every account's access and secret keys, admin accounts included. Upstream removed the
 * handler (4.9.8, 5.2.0); here it answers NO_PERMISSION.</li>
 * <li>S8: the ACL management requests (create or update an account, delete one, the ACL version, the global white
 * list) are not in 4.9.0's {@code Permission.ADMIN_CODE}, so any account can create itself an admin account or put
 * its address on the global white list, which skips every later check. Upstream made the first three admin-only
 * (5.x); S8 adds all four to {@code ADMIN_CODE} when the broker sets its ACL up, so the stock check itself refuses
 * them to non-admin accounts ("Need admin permission for request code=50 ..."), exactly as it refuses
 * UPDATE_BROKER_CONFIG. White-listed addresses pass as before, as they do upstream.</li>
 * </ul>
 */
public final class AclGuard {

    /** The ACL management request codes S8 makes admin-only. */
    public static final List<Integer> ADMIN_ONLY = Collections.unmodifiableList(Arrays.asList(
        RequestCode.UPDATE_AND_CREATE_ACL_CONFIG, RequestCode.DELETE_ACL_CONFIG, RequestCode.GET_BROKER_CLUSTER_ACL_INFO,
        RequestCode.UPDATE_GLOBAL_WHITE_ADDRS_CONFIG));

    private static final InternalLogger LOG = InternalLoggerFactory.getLogger(LoggerName.BROKER_LOGGER_NAME);

    private AclGuard() {
    }

    /** Entry of {@code AdminBrokerProcessor.getBrokerClusterAclConfig}: always a NO_PERMISSION response (S7). */
    public static RemotingCommand refuseClusterAclConfig(Object processor, ChannelHandlerContext ctx,
                                                         RemotingCommand request) {
        String caller = ctx == null ? "unknown" : RemotingHelper.parseChannelRemoteAddr(ctx.channel());
        LOG.warn("rmqpatch S7: refused GET_BROKER_CLUSTER_ACL_CONFIG from {} (CVE-2024-23321)", caller);
        RemotingCommand response = RemotingCommand.createResponseCommand(null);
        response.setCode(ResponseCode.NO_PERMISSION);
        response.setRemark("rmqpatch S7: GET_BROKER_CLUSTER_ACL_CONFIG is refused (CVE-2024-23321: it answered every "
            + "account's secret key); read the ACL file (conf/plain_acl.yml) on the broker host instead");
        return response;
    }

    /**
     * Entry of {@code BrokerController.initialAcl()}: the ACL management codes become admin codes before any
     * validator is registered (S8); false lets the stock method go on.
     */
    public static boolean requireAdminForAclManagement(Object controller) {
        // A plain HashSet read by the request threads: filled here, before the broker's servers start and
        // before the threads that read it exist.
        Permission.ADMIN_CODE.addAll(ADMIN_ONLY);
        return false;
    }
}
