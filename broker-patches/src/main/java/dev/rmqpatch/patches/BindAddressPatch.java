package dev.rmqpatch.patches;

import java.util.Arrays;
import java.util.List;

import dev.rmqpatch.patches.transform.MethodEdit;
import dev.rmqpatch.patches.transform.ReplaceCall;
import org.objectweb.asm.Opcodes;

/**
 * S4. Targets: {@code NettyRemotingServer.start()} in rocketmq-remoting (name server, broker and its VIP channel)
 * and {@code HAService$AcceptSocketService.beginAccept()} in rocketmq-store (the HA port).
 * Replacement: their bind of the wildcard address goes through {@code BindAddress}, which binds
 * {@code -Drmqpatch.bindAddress} instead when it is set, and binds as stock when it is not.
 * Why: 4.9.0 listens on every interface and has no setting for it, so a broker host on a shared network exposes
 * its unauthenticated admin requests everywhere. scripts/deploy.sh sets the property to each host's cluster
 * address.
 * Tests: see {@link #tests()}; measured: see {@link #benchmark()}.
 */
final class BindAddressPatch implements Patch {

    @Override
    public String id() {
        return "S4";
    }

    @Override
    public String name() {
        return "bind-address";
    }

    @Override
    public String buys() {
        return "with `-Drmqpatch.bindAddress=ADDR` the name server, broker, VIP channel and HA port listen on ADDR "
            + "only; unset, as stock";
    }

    @Override
    public String effect() {
        return "With -Drmqpatch.bindAddress=ADDR the name server, the broker, its VIP channel and its HA port listen on "
            + "ADDR only instead of every interface; an address that is not this host's stops start-up. Without the "
            + "property they bind as stock.";
    }

    @Override
    public String why() {
        return "RocketMQ 4.9.0 always listens on every interface; on hosts with more than one network the remoting "
            + "ports, whose admin requests need no credential, are then reachable from all of them.";
    }

    @Override
    public String verification() {
        return "ss -ltnp on a broker host started with -Drmqpatch.bindAddress=10.0.0.5 lists the broker's ports on "
            + "10.0.0.5 only, not on 0.0.0.0 or *.";
    }

    @Override
    public String tests() {
        return "BindAddressIT; codec: BindAddressTest";
    }

    @Override
    public String benchmark() {
        return "none (start-up only)";
    }

    @Override
    public List<MethodEdit> edits() {
        return Arrays.<MethodEdit>asList(
            ReplaceCall.ofInstanceCall(Stock.REMOTING_SERVER_START, Stock.BOOTSTRAP_LOCAL_ADDRESS, Opcodes.INVOKEVIRTUAL,
                Codec.BIND_LOCAL_ADDRESS, 1),
            ReplaceCall.ofInstanceCall(Stock.HA_BEGIN_ACCEPT, Stock.SERVER_SOCKET_BIND, Opcodes.INVOKEVIRTUAL,
                Codec.BIND_SERVER_SOCKET, 1));
    }
}
