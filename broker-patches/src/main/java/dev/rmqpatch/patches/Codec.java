package dev.rmqpatch.patches;

import dev.rmqpatch.patches.transform.MethodRef;

/** The codec methods that patched RocketMQ code calls, named as the JVM names them. */
final class Codec {

    static final String HOOKS = "dev/rmqpatch/codec/hook/RemotingCommandHooks";
    static final String PROPERTIES = "dev/rmqpatch/codec/properties/MessageProperties";

    static final MethodRef DECODE_HEADER = new MethodRef(HOOKS, "decodeCommandCustomHeader",
        "(L" + Stock.REMOTING_COMMAND + ";Ljava/lang/Class;)L" + Stock.COMMAND_CUSTOM_HEADER + ";");
    static final MethodRef ENCODE_HEADER = new MethodRef(HOOKS, "makeCustomHeaderToNet",
        "(L" + Stock.REMOTING_COMMAND + ";)Z");
    static final MethodRef ENCODE_PROPERTIES = new MethodRef(PROPERTIES, "encode", "(Ljava/util/Map;)Ljava/lang/String;");
    static final MethodRef ENCODE_PROPERTIES_FOR_STORE =
        new MethodRef(PROPERTIES, "encodeForStore", "(Ljava/util/Map;)Ljava/lang/String;");
    static final MethodRef DECODE_PROPERTIES = new MethodRef(PROPERTIES, "decode", "(Ljava/lang/String;)Ljava/util/Map;");

    private Codec() {
    }
}
