package dev.rmqpatch.bench.sink;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.rocketmq.remoting.RPCHook;
import org.apache.rocketmq.remoting.protocol.RemotingCommand;

/**
 * Refuses every request whose peer is not a loopback address. The stock remoting server runs its RPC hooks before
 * any processor and answers a hook's exception with an error response, so a stranger reaching the wildcard port of the
 * stock-remoting sink gets nothing but that error.
 */
final class LoopbackOnly implements RPCHook {
    /** Verdicts per peer "host:port": the sink's own CPU per message is a reported figure, so no parse per request. */
    private final ConcurrentHashMap<String, Boolean> verdicts = new ConcurrentHashMap<>();

    @Override
    public void doBeforeRequest(String remoteAddr, RemotingCommand request) {
        Boolean allowed = verdicts.get(String.valueOf(remoteAddr));
        if (allowed == null) {
            if (verdicts.size() > 4096) {
                verdicts.clear();
            }
            allowed = isLoopback(host(remoteAddr));
            verdicts.put(String.valueOf(remoteAddr), allowed);
        }
        if (!allowed) {
            throw new SecurityException("this sink answers loopback clients only, not " + remoteAddr);
        }
    }

    @Override
    public void doAfterResponse(String remoteAddr, RemotingCommand request, RemotingCommand response) {
    }

    /** "host:port" (RemotingHelper's form, IPv6 hosts included) to host. */
    static String host(String remoteAddr) {
        if (remoteAddr == null) {
            return "";
        }
        int colon = remoteAddr.lastIndexOf(':');
        String host = colon < 0 ? remoteAddr : remoteAddr.substring(0, colon);
        return host.startsWith("[") && host.endsWith("]") ? host.substring(1, host.length() - 1) : host;
    }

    /** Only literal addresses count: a name is never looked up, so nothing here waits on DNS. */
    static boolean isLoopback(String host) {
        if (host.isEmpty() || !(Character.digit(host.charAt(0), 16) >= 0 || host.charAt(0) == ':')) {
            return false;
        }
        try {
            return InetAddress.getByName(host).isLoopbackAddress();
        } catch (UnknownHostException | SecurityException e) {
            return false;
        }
    }
}
