package dev.rmqpatch.codec.security;

import java.io.UnsupportedEncodingException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Properties;

import io.netty.channel.ChannelHandlerContext;
import org.apache.rocketmq.common.MixAll;
import org.apache.rocketmq.common.constant.LoggerName;
import org.apache.rocketmq.common.protocol.ResponseCode;
import org.apache.rocketmq.logging.InternalLogger;
import org.apache.rocketmq.logging.InternalLoggerFactory;
import org.apache.rocketmq.remoting.common.RemotingHelper;
import org.apache.rocketmq.remoting.protocol.RemotingCommand;

/**
 * Refuses run-time config updates (UPDATE_BROKER_CONFIG, UPDATE_NAMESRV_CONFIG) that touch a key an attacker
 * can turn into code execution or a file write. Stock 4.9.0 applies any key from anyone who reaches the port and
 * persists the result: {@code rocketmqHome} and {@code filterServerNums} become a shell command on the broker
 * (CVE-2023-33246), {@code configStorePath} chooses the file the name server writes next (CVE-2023-37582).
 * A request naming any protected key, or with a line break in any key or value (which stock would persist as new lines
 * of the config file, read as keys at the next start), is refused whole, before the stock code parses or writes
 * anything.
 */
public final class ConfigUpdateGuard {

    /**
     * Upstream's list (4.9.7/4.9.8: brokerConfigPath, rocketmqHome, configBlackList), the filter-server count that
     * starts the shell command, and the store paths, which decide where the broker creates and deletes files.
     */
    public static final List<String> BROKER_KEYS = Collections.unmodifiableList(Arrays.asList(
        "brokerConfigPath", "rocketmqHome", "configBlackList", "filterServerNums",
        "storePathRootDir", "storePathCommitLog"));

    /** Upstream's list (4.9.7/4.9.8): where the name server persists its config and KV store, and its home. */
    public static final List<String> NAMESRV_KEYS = Collections.unmodifiableList(Arrays.asList(
        "configStorePath", "kvConfigPath", "rocketmqHome", "configBlackList"));

    private static final InternalLogger BROKER_LOG = InternalLoggerFactory.getLogger(LoggerName.BROKER_LOGGER_NAME);
    private static final InternalLogger NAMESRV_LOG = InternalLoggerFactory.getLogger(LoggerName.NAMESRV_LOGGER_NAME);

    private ConfigUpdateGuard() {
    }

    /** Entry of {@code AdminBrokerProcessor.updateBrokerConfig}: a NO_PERMISSION response, or null for stock. */
    public static RemotingCommand checkBrokerUpdate(Object processor, ChannelHandlerContext ctx, RemotingCommand request) {
        return check("S1", "broker", "CVE-2023-33246", BROKER_KEYS, BROKER_LOG, ctx, request);
    }

    /** Entry of {@code DefaultRequestProcessor.updateConfig} in the name server: as above. */
    public static RemotingCommand checkNamesrvUpdate(Object processor, ChannelHandlerContext ctx, RemotingCommand request) {
        return check("S3", "name server", "CVE-2023-37582", NAMESRV_KEYS, NAMESRV_LOG, ctx, request);
    }

    private static RemotingCommand check(String patch, String server, String cve, List<String> protectedKeys,
                                         InternalLogger log, ChannelHandlerContext ctx, RemotingCommand request) {
        List<String> hits = protectedKeysIn(request.getBody(), protectedKeys);
        if (hits.isEmpty()) {
            return null;
        }
        String caller = ctx == null ? "unknown" : RemotingHelper.parseChannelRemoteAddr(ctx.channel());
        log.warn("rmqpatch {}: refused a {} config update from {} that sets {} ({}); nothing was changed",
            patch, server, caller, hits, cve);
        RemotingCommand response = RemotingCommand.createResponseCommand(null);
        response.setCode(ResponseCode.NO_PERMISSION);
        response.setRemark("rmqpatch " + patch + ": the " + server + " config key(s) " + hits
            + " cannot be updated at run time (" + cve + ", and line breaks that stock would persist as new config lines); "
            + "nothing was changed. Set them in the config file and restart.");
        return response;
    }

    /**
     * The protected keys a config-update body sets, read exactly as the stock handler reads it (UTF-8, then
     * {@link Properties#load}, which also undoes escapes in keys). Empty when there is no body or it does not
     * parse: the stock code then answers as it always did and changes nothing.
     */
    static List<String> protectedKeysIn(byte[] body, List<String> protectedKeys) {
        List<String> hits = new ArrayList<String>();
        if (body == null) {
            return hits;
        }
        Properties properties;
        try {
            properties = MixAll.string2Properties(new String(body, MixAll.DEFAULT_CHARSET));
        } catch (UnsupportedEncodingException e) {
            return hits;
        }
        if (properties == null) {
            return hits;
        }
        for (String key : protectedKeys) {
            if (properties.containsKey(key)) {
                hits.add(key);
            }
        }
        for (String key : properties.stringPropertyNames()) {
            if (breaksLines(key) || breaksLines(properties.getProperty(key))) {
                hits.add(key + " (a line break in its name or value)");
            }
        }
        return hits;
    }

    /**
     * Stock persists an update with {@code MixAll.properties2String}, which writes {@code key=value} lines without
     * escaping: a value given as {@code x\nrocketmqHome=...} becomes a line of its own in the config file that the
     * next start reads as a key, past any list of protected keys. Upstream has no fix; no RocketMQ setting holds one.
     */
    static boolean breaksLines(String s) {
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c == '\n' || c == '\r' || c == '\u0085' || c == '\u2028' || c == '\u2029') {
                return true;
            }
        }
        return false;
    }
}
