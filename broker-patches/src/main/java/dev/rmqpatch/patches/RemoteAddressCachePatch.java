package dev.rmqpatch.patches;

import java.util.Collections;
import java.util.List;

import dev.rmqpatch.patches.transform.DelegateBody;
import dev.rmqpatch.patches.transform.MethodEdit;

/**
 * P8. Target: {@code RemotingHelper.parseChannelRemoteAddr(Channel)} in rocketmq-remoting.
 * Replacement: the body delegates to {@code RemoteAddresses.parseChannelRemoteAddr}, which computes the same
 * string once per channel and keeps it in a channel attribute.
 * Why: the address string is rebuilt (InetSocketAddress.toString, substring) two to three times per request: for
 * the RPC hooks before and after (called even when none is registered) and in the send processor's callback.
 * Upstream cached it in 4.9.3 (#3589, 4.84% CPU in its thread).
 * Tests: see {@link #tests()}; measured: see {@link #benchmark()}.
 */
final class RemoteAddressCachePatch implements Patch {

    @Override
    public String id() {
        return "P8";
    }

    @Override
    public String name() {
        return "remote-address-cache";
    }

    @Override
    public String buys() {
        return "the \"host:port\" string computed once per connection, not two to three times per request (upstream "
            + "4.9.3)";
    }

    @Override
    public String effect() {
        return "The \"host:port\" string of a connection is computed once (exactly as stock computes it) and kept in a "
            + "channel attribute, instead of being rebuilt for every RPC hook call and callback of every request.";
    }

    @Override
    public String why() {
        return "It is rebuilt two to three times per request even with no RPC hook registered; upstream measured 4.84% "
            + "of CPU for it and cached it in 4.9.3.";
    }

    @Override
    public String verification() {
        return "Broker logs that name a client address show the same host:port as before.";
    }

    @Override
    public String tests() {
        return "every IT; codec: RemoteAddressesTest";
    }

    @Override
    public String benchmark() {
        return "end to end: scripts/compare.sh --efficiency with and without -Drmqpatch.disable=P8 (BENCHMARKS.md)";
    }

    @Override
    public ReleaseFit on(Release release) {
        return release.atLeast(Release.V4_9_3) ? ReleaseFit.upstream(
            "4.9.3's RemotingHelper.parseChannelRemoteAddr caches the string in a "
            + "channel attribute (read)") : ReleaseFit.APPLIES;
    }

    @Override
    public List<MethodEdit> edits() {
        return Collections.<MethodEdit>singletonList(new DelegateBody(Stock.PARSE_CHANNEL_REMOTE_ADDR, Codec.REMOTE_ADDR));
    }
}
