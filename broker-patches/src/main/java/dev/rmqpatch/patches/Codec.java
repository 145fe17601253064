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
    static final MethodRef DECODE_PULL_HEADER = new MethodRef(HOOKS, "decodePullCustomHeader", DECODE_HEADER.desc);
    static final MethodRef ENCODE_PULL_HEADER = new MethodRef(HOOKS, "makePullHeaderToNet", ENCODE_HEADER.desc);
    /** P4's and P11's 4.9.7+ variants: the encoders of 4.9.7's header fields and key order (RpcHeaderEncoders). */
    static final String RPC_HOOKS = "dev/rmqpatch/codec/hook/RpcHeaderHooks";
    static final MethodRef ENCODE_RPC_HEADER = new MethodRef(RPC_HOOKS, "makeRpcHeaderToNet", ENCODE_HEADER.desc);
    static final MethodRef ENCODE_RPC_PULL_HEADER = new MethodRef(RPC_HOOKS, "makeRpcPullHeaderToNet", ENCODE_HEADER.desc);
    static final MethodRef DECODE_JSON_HEADER = new MethodRef(HOOKS, "decodeJsonHeader", Stock.JSON_DECODE.desc);
    /** P5's variant (4.9.4+): the same reader, the blank command from 4.9.4's ByteBuf decoder (JsonHeaderHooks). */
    static final MethodRef DECODE_JSON_HEADER_BYTE_BUF_ERA = new MethodRef("dev/rmqpatch/codec/hook/JsonHeaderHooks",
        "decodeJsonHeader", Stock.JSON_DECODE.desc);
    static final MethodRef ENCODE_JSON_HEADER = new MethodRef(HOOKS, "encodeJsonHeader", Stock.JSON_ENCODE.desc);
    static final MethodRef ENCODE_PROPERTIES = new MethodRef(PROPERTIES, "encode", "(Ljava/util/Map;)Ljava/lang/String;");
    static final MethodRef ENCODE_PROPERTIES_FOR_STORE =
        new MethodRef(PROPERTIES, "encodeForStore", "(Ljava/util/Map;)Ljava/lang/String;");
    static final MethodRef DECODE_PROPERTIES = new MethodRef(PROPERTIES, "decode", "(Ljava/lang/String;)Ljava/util/Map;");
    /** P2's 4.9.3+ variant: that format (no trailing separator) and that parser. */
    static final String PROPERTIES_493 = "dev/rmqpatch/codec/properties/MessageProperties493";
    static final MethodRef ENCODE_PROPERTIES_493 = new MethodRef(PROPERTIES_493, "encode", ENCODE_PROPERTIES.desc);
    static final MethodRef DECODE_PROPERTIES_493 = new MethodRef(PROPERTIES_493, "decode", DECODE_PROPERTIES.desc);

    static final String SECURITY = "dev/rmqpatch/codec/security/";
    static final String STARTUP = "dev/rmqpatch/codec/switches/StartupHooks";
    private static final String GUARD_DESC = "(Ljava/lang/Object;" + Stock.CTX + "L" + Stock.REMOTING_COMMAND + ";)L"
        + Stock.REMOTING_COMMAND + ";";

    static final MethodRef CHECK_BROKER_CONFIG_UPDATE = new MethodRef(SECURITY + "ConfigUpdateGuard", "checkBrokerUpdate",
        GUARD_DESC);
    static final MethodRef CHECK_NAMESRV_CONFIG_UPDATE = new MethodRef(SECURITY + "ConfigUpdateGuard",
        "checkNamesrvUpdate", GUARD_DESC);
    static final MethodRef REFUSE_FILTER_SERVER = new MethodRef(SECURITY + "FilterServerLaunch", "refuse",
        Stock.CALL_SHELL.desc);
    static final MethodRef BROKER_STARTING = new MethodRef(STARTUP, "brokerStarting", "([Ljava/lang/String;)Ljava/lang/Object;");
    static final MethodRef NAMESRV_STARTING = new MethodRef(STARTUP, "namesrvStarting", "([Ljava/lang/String;)Ljava/lang/Object;");
    static final MethodRef BROKER_STARTED = new MethodRef(STARTUP, "brokerStarted", "(Ljava/lang/Object;)Z");
    static final MethodRef NAMESRV_STARTED = new MethodRef(STARTUP, "namesrvStarted", "(Ljava/lang/Object;)Z");

    static final MethodRef ENABLE_FASTJSON_SAFE_MODE = new MethodRef(SECURITY + "AutoTypeGuard", "enableSafeMode", "()Z");
    static final MethodRef CHECK_FRAME = new MethodRef(SECURITY + "FrameBounds", "checkFrame", Stock.FRAME_DECODE.desc);
    static final MethodRef CHECK_ROCKETMQ_HEADER = new MethodRef(SECURITY + "FrameBounds", "checkRocketMQHeader",
        Stock.ROCKETMQ_HEADER_DECODE.desc);
    static final MethodRef READ_COMPRESSED_BYTES = new MethodRef(SECURITY + "CompressedBodies", "readBytes",
        Stock.REGISTER_BROKER_BODY_READ_BYTES.desc);
    static final MethodRef QUERY_OFFSET_BOUNDED = new MethodRef("dev/rmqpatch/codec/store/QueryLimits", "queryOffset",
        "(Lorg/apache/rocketmq/store/index/IndexService;" + Stock.INDEX_QUERY_OFFSET.desc.substring(1));
    static final MethodRef REFUSE_ILLEGAL_GROUP = new MethodRef(SECURITY + "GroupNames", "refuseIllegalGroup",
        "(Ljava/lang/Object;Ljava/lang/String;)Z");
    static final MethodRef REFUSE_CLUSTER_ACL_CONFIG = new MethodRef(SECURITY + "AclGuard", "refuseClusterAclConfig",
        GUARD_DESC);
    static final MethodRef REQUIRE_ADMIN_FOR_ACL_MANAGEMENT = new MethodRef(SECURITY + "AclGuard",
        "requireAdminForAclManagement", "(Ljava/lang/Object;)Z");

    static final String REMOTING = "dev/rmqpatch/codec/remoting/";
    static final MethodRef PIPELINE_ADD_LAST_NAMED = new MethodRef(REMOTING + "ServerPipeline", "addLast",
        "(L" + Stock.PIPELINE + ";" + Stock.PIPELINE_ADD_LAST_NAMED.desc.substring(1));
    static final MethodRef PIPELINE_ADD_LAST_ALL = new MethodRef(REMOTING + "ServerPipeline", "addLast",
        "(L" + Stock.PIPELINE + ";" + Stock.PIPELINE_ADD_LAST_ALL.desc.substring(1));
    static final MethodRef PIPELINE_ADD_AFTER = new MethodRef(REMOTING + "ServerPipeline", "addAfter",
        "(L" + Stock.PIPELINE + ";" + Stock.PIPELINE_ADD_AFTER.desc.substring(1));
    static final MethodRef REMOTE_ADDR = new MethodRef(REMOTING + "RemoteAddresses", "parseChannelRemoteAddr",
        Stock.PARSE_CHANNEL_REMOTE_ADDR.desc);
    static final MethodRef INLINE_RESPONSE = new MethodRef(REMOTING + "InlineResponse", "thenAcceptAsync",
        "(Ljava/util/concurrent/CompletableFuture;" + Stock.THEN_ACCEPT_ASYNC.desc.substring(1));

    static final MethodRef DIRECT_RESPONSE_EXECUTOR = new MethodRef(REMOTING + "DirectResponse", "sendMessageExecutor",
        "(L" + Stock.BROKER_CONTROLLER + ";" + Stock.GET_SEND_MESSAGE_EXECUTOR.desc.substring(1));

    /** P15's variant (4.9.3+): instead of getPutMessageFutureExecutor() in the same call. */
    static final MethodRef DIRECT_RESPONSE_PUT_FUTURE_EXECUTOR = new MethodRef(REMOTING + "DirectResponse",
        "putMessageFutureExecutor", "(L" + Stock.BROKER_CONTROLLER + ";" + Stock.GET_PUT_MESSAGE_FUTURE_EXECUTOR.desc.substring(1));

    static final MethodRef BIND_LOCAL_ADDRESS = new MethodRef(SECURITY + "BindAddress", "localAddress",
        "(Lio/netty/bootstrap/ServerBootstrap;" + Stock.BOOTSTRAP_LOCAL_ADDRESS.desc.substring(1));
    static final MethodRef BIND_SERVER_SOCKET = new MethodRef(SECURITY + "BindAddress", "bind",
        "(Ljava/net/ServerSocket;" + Stock.SERVER_SOCKET_BIND.desc.substring(1));

    static final MethodRef CONSUME_QUEUE_APPEND = new MethodRef("dev/rmqpatch/codec/store/ConsumeQueueAppend",
        "appendMessage", "(L" + Stock.MAPPED_FILE + ";" + Stock.MAPPED_FILE_APPEND_BYTES.desc.substring(1));

    static final MethodRef SLAVE_COMMIT_LOG_APPEND = new MethodRef("dev/rmqpatch/codec/store/SlaveCommitLogAppend",
        "appendMessage", CONSUME_QUEUE_APPEND.desc);

    static final MethodRef SLAVE_READ_IN_PLACE = new MethodRef("dev/rmqpatch/codec/store/SlaveReadInPlace",
        "appendToCommitLog", "(ZLorg/apache/rocketmq/store/MappedFileQueue;Lorg/apache/rocketmq/store/PutMessageLock;"
            + "Lorg/apache/rocketmq/common/ServiceThread;JLjava/nio/ByteBuffer;II)Z");

    static final String REPLICA_ACKS = "dev/rmqpatch/codec/ha/ReplicaAcks";
    static final MethodRef REPLICA_PUT_REQUEST = new MethodRef(REPLICA_ACKS, "putRequest",
        "(L" + Stock.HA_SERVICE + ";" + Stock.HA_PUT_REQUEST.desc.substring(1));
    static final MethodRef REPLICA_NOTIFY_TRANSFER_SOME = new MethodRef(REPLICA_ACKS, "notifyTransferSome",
        "(L" + Stock.HA_SERVICE + ";" + Stock.HA_NOTIFY_TRANSFER_SOME.desc.substring(1));
    /** P13's variant (4.9.3+): the request waits until its own deadline. */
    static final MethodRef REPLICA_PUT_REQUEST_UNTIL_DEADLINE = new MethodRef("dev/rmqpatch/codec/ha/ReplicaDeadlines", "putRequestUntilDeadline",
        "(L" + Stock.HA_SERVICE + ";" + Stock.HA_PUT_REQUEST.desc.substring(1));
    static final MethodRef REPLICA_SWEEP = new MethodRef(REPLICA_ACKS, "sweep", "(Ljava/lang/Object;)Z");
    static final MethodRef REPLICA_TRANSFER_WAIT = new MethodRef(REPLICA_ACKS, "transferWaitMillis", "(J)J");

    static final String HA_WAKEUPS = "dev/rmqpatch/codec/ha/HaWakeups";
    private static final String WNO = "(L" + Stock.WAIT_NOTIFY_OBJECT + ";";
    static final MethodRef HA_WAKEUP_ALL = new MethodRef(HA_WAKEUPS, "wakeupAll", WNO + ")Z");
    static final MethodRef HA_ALL_WAIT_FOR_RUNNING = new MethodRef(HA_WAKEUPS, "allWaitForRunning", WNO + "J)Z");
    static final MethodRef HA_REMOVE_WAITING_THREAD = new MethodRef(HA_WAKEUPS, "removeFromWaitingThreadTable", WNO + ")Z");
    static final String TOPIC_PUT_COUNTERS = "dev/rmqpatch/codec/stats/TopicPutCounters";
    static final MethodRef COUNTERS_READ_TOPIC = new MethodRef(TOPIC_PUT_COUNTERS, "readTopic",
        "(Ljava/util/Map;Ljava/lang/String;)L" + Stock.ATOMIC_LONG + ";");
    static final MethodRef COUNTERS_COUNTER = new MethodRef(TOPIC_PUT_COUNTERS, "counter", COUNTERS_READ_TOPIC.desc);
    static final MethodRef COUNTERS_FOLD_ALL = new MethodRef(TOPIC_PUT_COUNTERS, "foldAll", "(Ljava/util/Map;)Ljava/util/Map;");
    static final MethodRef COUNTERS_TIMES_TOTAL = new MethodRef(TOPIC_PUT_COUNTERS, "timesTotal",
        "(L" + Stock.STORE_STATS_SERVICE + ";)J");
    static final MethodRef COUNTERS_SIZE_TOTAL = new MethodRef(TOPIC_PUT_COUNTERS, "sizeTotal", COUNTERS_TIMES_TOTAL.desc);
    static final MethodRef COUNTERS_INCREMENT = new MethodRef(TOPIC_PUT_COUNTERS, "increment",
        "(L" + Stock.ATOMIC_LONG + ";)J");
    static final MethodRef COUNTERS_ADD = new MethodRef(TOPIC_PUT_COUNTERS, "add", "(L" + Stock.ATOMIC_LONG + ";J)J");
    static final String SOCKET_BUFFERS = REMOTING + "SocketBuffers";
    static final MethodRef BUFFER_PROPERTY_DEFAULT = new MethodRef(SOCKET_BUFFERS, "systemProperty",
        Stock.SYSTEM_GET_PROPERTY_DEFAULT.desc);
    static final MethodRef BUFFER_PROPERTY = new MethodRef(SOCKET_BUFFERS, "systemProperty", Stock.SYSTEM_GET_PROPERTY.desc);
    static final MethodRef BUFFER_CHILD_OPTION = new MethodRef(SOCKET_BUFFERS, "childOption",
        "(Lio/netty/bootstrap/ServerBootstrap;" + Stock.SERVER_CHILD_OPTION.desc.substring(1));
    static final MethodRef BUFFER_CLIENT_OPTION = new MethodRef(SOCKET_BUFFERS, "option",
        "(Lio/netty/bootstrap/Bootstrap;" + Stock.CLIENT_BOOTSTRAP_OPTION.desc.substring(1));
    static final MethodRef HA_RECEIVE_BUFFER = new MethodRef(SOCKET_BUFFERS, "setReceiveBufferSize", "(Ljava/net/Socket;I)V");
    static final MethodRef HA_SEND_BUFFER = new MethodRef(SOCKET_BUFFERS, "setSendBufferSize", "(Ljava/net/Socket;I)V");

    static final String ENCODE_OUTSIDE_LOCK = "dev/rmqpatch/codec/store/EncodeOutsideLock";
    static final MethodRef ENCODE_BEGIN_PUT = new MethodRef(ENCODE_OUTSIDE_LOCK, "beginPut",
        "(L" + Stock.COMMIT_LOG + ";L" + Stock.MESSAGE_EXT_BROKER_INNER + ";)Lorg/apache/rocketmq/store/PutMessageResult;");
    static final MethodRef ENCODE_BEGIN_ASYNC_PUT = new MethodRef(ENCODE_OUTSIDE_LOCK, "beginAsyncPut",
        "(L" + Stock.COMMIT_LOG + ";L" + Stock.MESSAGE_EXT_BROKER_INNER + ";)Ljava/util/concurrent/CompletableFuture;");
    static final MethodRef ENCODE_LOCK = new MethodRef(ENCODE_OUTSIDE_LOCK, "lock", "(L" + Stock.PUT_MESSAGE_LOCK + ";)V");
    static final MethodRef ENCODE_DO_APPEND = new MethodRef(ENCODE_OUTSIDE_LOCK, "doAppend",
        "(ILjava/util/HashMap;L" + Stock.DEFAULT_MESSAGE_STORE + ";JLjava/nio/ByteBuffer;IL" + Stock.MESSAGE_EXT_BROKER_INNER
            + ";)Lorg/apache/rocketmq/store/AppendMessageResult;");
    // P21
    static final String STATS_ITEM_COUNTERS = "dev/rmqpatch/codec/stats/StatsItemCounters";
    static final MethodRef STATS_NEW_COUNTER = new MethodRef(STATS_ITEM_COUNTERS, "newCounter",
        "(J)L" + Stock.ATOMIC_LONG + ";");
    static final MethodRef STATS_ADD = new MethodRef(STATS_ITEM_COUNTERS, "add", "(L" + Stock.ATOMIC_LONG + ";J)J");
    static final MethodRef STATS_INCREMENT = new MethodRef(STATS_ITEM_COUNTERS, "increment", "(L" + Stock.ATOMIC_LONG + ";)J");
    static final MethodRef STATS_GET = new MethodRef(STATS_ITEM_COUNTERS, "get", "(L" + Stock.ATOMIC_LONG + ";)J");
    static final MethodRef STATS_READ = new MethodRef(STATS_ITEM_COUNTERS, "read",
        "(L" + Stock.ATOMIC_LONG + ";)L" + Stock.ATOMIC_LONG + ";");
    static final MethodRef STATS_COUNTER = new MethodRef(STATS_ITEM_COUNTERS, "counter", STATS_READ.desc);

    // P22
    static final String GROUP_COMMIT_QUEUE = "dev/rmqpatch/codec/store/GroupCommitQueue";
    static final MethodRef GROUP_COMMIT_NEW_QUEUE = new MethodRef(GROUP_COMMIT_QUEUE, "newQueue", "()Ljava/util/ArrayList;");
    static final MethodRef GROUP_COMMIT_PUT = new MethodRef(GROUP_COMMIT_QUEUE, "putRequest",
        "(Ljava/util/List;Lorg/apache/rocketmq/common/ServiceThread;L" + Stock.GROUP_COMMIT_REQUEST + ";)V");
    static final MethodRef GROUP_COMMIT_SWAP = new MethodRef(GROUP_COMMIT_QUEUE, "swapRequests", "(Ljava/util/List;)V");
    static final MethodRef GROUP_COMMIT_DO_COMMIT = new MethodRef(GROUP_COMMIT_QUEUE, "doCommit",
        "(Ljava/util/List;Lorg/apache/rocketmq/store/MappedFileQueue;Lorg/apache/rocketmq/store/DefaultMessageStore;)V");

    // P23
    static final String HA_GATHER_WRITE = "dev/rmqpatch/codec/ha/HaGatherWrite";
    static final MethodRef HA_GATHER_BODY = new MethodRef(HA_GATHER_WRITE, "body",
        "(L" + Stock.SELECT_MAPPED_BUFFER_RESULT + ";)Ljava/nio/ByteBuffer;");
    static final MethodRef HA_GATHER_WRITE_CALL = new MethodRef(HA_GATHER_WRITE, "write",
        "(Ljava/nio/channels/SocketChannel;Ljava/nio/ByteBuffer;)I");

    // P24
    static final MethodRef HA_DRAINED_READ = new MethodRef("dev/rmqpatch/codec/ha/HaDrainedRead", "read",
        "(Ljava/nio/channels/SocketChannel;Ljava/nio/ByteBuffer;)I");

    // P37
    static final MethodRef HA_ACK_PER_READ = new MethodRef("dev/rmqpatch/codec/ha/HaAckPerRead", "deferReport",
        "(Ljava/nio/ByteBuffer;IL" + Stock.HA_SERVICE + ";)Z");

    // P38
    static final String REPUT_WAKEUPS = "dev/rmqpatch/codec/store/ReputWakeups";
    static final MethodRef REPUT_PAUSE = new MethodRef(REPUT_WAKEUPS, "pause", "(J)V");
    static final MethodRef REPUT_STORE_STARTING = new MethodRef(REPUT_WAKEUPS, "storeStarting",
        "(L" + Stock.DEFAULT_MESSAGE_STORE + ";)Z");
    static final MethodRef REPUT_FLUSH_REQUESTED = new MethodRef(REPUT_WAKEUPS, "flushRequested",
        "(L" + Stock.COMMIT_LOG + ";" + Stock.COMMIT_LOG_SUBMIT_FLUSH.desc.substring(1));
    static final MethodRef REPUT_DISK_FLUSHING = new MethodRef(REPUT_WAKEUPS, "diskFlushing",
        "(L" + Stock.COMMIT_LOG + ";L" + Stock.APPEND_MESSAGE_RESULT + ";Lorg/apache/rocketmq/store/PutMessageResult;"
        + "Lorg/apache/rocketmq/common/message/MessageExt;)Z");
    static final MethodRef REPUT_SLAVE_REPORTING = new MethodRef(REPUT_WAKEUPS, "slaveReporting",
        "(Ljava/lang/Object;)Z");

    // P39
    static final String FAST_FAILURE_TICKS = "dev/rmqpatch/codec/latency/FastFailureTicks";
    static final MethodRef FAST_FAILURE_SCHEDULE = new MethodRef(FAST_FAILURE_TICKS, "scheduleAtFixedRate",
        "(Ljava/util/concurrent/ScheduledExecutorService;" + Stock.SCHEDULE_AT_FIXED_RATE.desc.substring(1));
    static final MethodRef FAST_FAILURE_BROKER_CONFIG = new MethodRef(FAST_FAILURE_TICKS, "brokerConfig",
        "(L" + Stock.BROKER_CONTROLLER + ";)Lorg/apache/rocketmq/common/BrokerConfig;");

    // P40
    static final String DELAY_LEVEL_REST = "dev/rmqpatch/codec/latency/DelayLevelRest";
    static final MethodRef DELAY_INDEX_BUFFER = new MethodRef(DELAY_LEVEL_REST, "indexBuffer",
        "(L" + Stock.CONSUME_QUEUE + ";" + Stock.CQ_GET_INDEX_BUFFER.desc.substring(1));
    static final MethodRef DELAY_SCHEDULE = new MethodRef(DELAY_LEVEL_REST, "schedule",
        "(Ljava/util/concurrent/ScheduledExecutorService;" + Stock.SCHEDULE_ONCE.desc.substring(1));
    static final MethodRef DELAY_TIMER_SCHEDULE = new MethodRef(DELAY_LEVEL_REST, "schedule",
        "(Ljava/util/Timer;" + Stock.TIMER_SCHEDULE.desc.substring(1));
    static final MethodRef DELAY_DISPATCHED = new MethodRef(DELAY_LEVEL_REST, "putMessagePositionInfo",
        "(L" + Stock.DEFAULT_MESSAGE_STORE + ";" + Stock.STORE_PUT_POSITION_INFO.desc.substring(1));

    // P26
    static final String CLIENT_PIPELINE = REMOTING + "ClientPipeline";
    static final MethodRef CLIENT_PIPELINE_ADD_FIRST = new MethodRef(CLIENT_PIPELINE, "addFirst",
        "(L" + Stock.PIPELINE + ";" + Stock.PIPELINE_ADD_FIRST_NAMED.desc.substring(1));
    static final MethodRef CLIENT_PIPELINE_ADD_LAST = new MethodRef(CLIENT_PIPELINE, "addLast",
        "(L" + Stock.PIPELINE + ";" + Stock.PIPELINE_ADD_LAST_ALL.desc.substring(1));

    // P32
    static final MethodRef CLIENT_FLUSHES_PIPELINE = new MethodRef(REMOTING + "ClientFlushes", "pipeline",
        "(Lio/netty/channel/socket/SocketChannel;)L" + Stock.PIPELINE + ";");

    // P27
    static final MethodRef CREATE_UNIQ_ID = new MethodRef("dev/rmqpatch/codec/client/UniqueKeys", "createUniqID",
        "(Ljava/lang/String;Ljava/util/concurrent/atomic/AtomicInteger;JJ)Ljava/lang/String;");
    // P28
    static final String MESSAGE_DECODES = "dev/rmqpatch/codec/message/MessageDecodes";
    static final MethodRef DECODES = new MethodRef(MESSAGE_DECODES, "decodes", Stock.MESSAGE_DECODES.desc);
    static final MethodRef DECODE = new MethodRef(MESSAGE_DECODES, "decode", Stock.MESSAGE_DECODE.desc);
    /** P28's 4.9.3 variant: 4.9.3's rules (zlib, the release's properties parser). */
    static final String MESSAGE_DECODES_493 = "dev/rmqpatch/codec/message/MessageDecodes493";
    static final MethodRef DECODES_493 = new MethodRef(MESSAGE_DECODES_493, "decodes", Stock.MESSAGE_DECODES.desc);
    static final MethodRef DECODE_493 = new MethodRef(MESSAGE_DECODES_493, "decode", Stock.MESSAGE_DECODE.desc);
    /** P28's 4.9.4+ variant (compiled from src/main/java-rpc): the compressor by type, the release's parser. */
    static final String MESSAGE_DECODES_494 = "dev/rmqpatch/codec/message/MessageDecodes494";
    static final MethodRef DECODES_494 = new MethodRef(MESSAGE_DECODES_494, "decodes", Stock.MESSAGE_DECODES.desc);
    static final MethodRef DECODE_494 = new MethodRef(MESSAGE_DECODES_494, "decode", Stock.MESSAGE_DECODE.desc);

    // P30
    static final String INLINE_SEND = REMOTING + "InlineSend";
    static final MethodRef INLINE_SEND_REQUEST_TASK = new MethodRef(INLINE_SEND, "requestTask",
        Stock.REQUEST_TASK_INIT.substring(0, Stock.REQUEST_TASK_INIT.length() - 1) + "L" + Stock.REQUEST_TASK + ";");
    static final MethodRef INLINE_SEND_SUBMIT = new MethodRef(INLINE_SEND, "submit",
        "(Ljava/util/concurrent/ExecutorService;" + Stock.EXECUTOR_SUBMIT.desc.substring(1));

    // P31
    static final String INLINE_PULL_CALLBACK = "dev/rmqpatch/codec/client/InlinePullCallback";
    static final MethodRef INLINE_PULL_EXECUTE = voidEntryHook("dev/rmqpatch/codec/client/InlinePullExecution",
        Stock.EXECUTE_INVOKE_CALLBACK);
    static final MethodRef INLINE_PULL_MESSAGE_ASYNC = voidEntryHook(INLINE_PULL_CALLBACK, Stock.PULL_MESSAGE_ASYNC);
    static final MethodRef INLINE_PULL_INVOKE_ASYNC = new MethodRef(INLINE_PULL_CALLBACK, "invokeAsync",
        "(Lorg/apache/rocketmq/remoting/RemotingClient;" + Stock.REMOTING_CLIENT_INVOKE_ASYNC.desc.substring(1));

    // P33
    static final String INLINE_NEXT_PULL = "dev/rmqpatch/codec/client/InlineNextPull";
    /** The blocking points' guard: no client class in it, since the broker's remoting jar calls it too. */
    static final String INLINE_PULL_GUARD = "dev/rmqpatch/codec/client/InlinePullGuard";
    static final MethodRef NEXT_PULL_EXECUTE = new MethodRef(INLINE_NEXT_PULL, "executePullRequestImmediately",
        "(L" + Stock.EXECUTE_PULL_REQUEST_IMMEDIATELY.owner + ";" + Stock.EXECUTE_PULL_REQUEST_IMMEDIATELY.desc.substring(1));
    static final MethodRef NEXT_PULL_TRY_ACQUIRE = new MethodRef(INLINE_PULL_GUARD, "tryAcquire",
        "(Ljava/util/concurrent/Semaphore;" + Stock.SEMAPHORE_TRY_ACQUIRE_TIMED.desc.substring(1));
    static final MethodRef NEXT_PULL_TRY_LOCK = new MethodRef(INLINE_PULL_GUARD, "tryLock",
        "(Ljava/util/concurrent/locks/Lock;" + Stock.LOCK_TRY_LOCK_TIMED.desc.substring(1));
    static final MethodRef NEXT_PULL_CREATE_CHANNEL = new MethodRef(INLINE_PULL_GUARD, "createChannel",
        "(L" + Stock.NETTY_REMOTING_CLIENT + ";Ljava/lang/String;)Ljava/lang/Object;");
    static final MethodRef NEXT_PULL_INVOKE_SYNC = new MethodRef(INLINE_PULL_GUARD, "invokeSync",
        "(L" + Stock.NETTY_REMOTING_CLIENT + ";" + Stock.CLIENT_INVOKE_SYNC.desc.substring(1));

    // P34
    static final MethodRef VALID_NAMES_MATCHER = new MethodRef("dev/rmqpatch/codec/names/ValidNames",
        "regularExpressionMatcher", Stock.REGEX_MATCHER_DESC);
    // P35
    static final MethodRef INSTANCE_ENDPOINT_MEMO = new MethodRef("dev/rmqpatch/codec/client/InstanceEndpoints",
        "validateInstanceEndpoint", Stock.VALIDATE_INSTANCE_ENDPOINT.desc);

    // P36
    static final MethodRef BATCH_PROPERTY_SEPARATOR = new MethodRef("dev/rmqpatch/codec/store/BatchPropertySeparator",
        "encode", "(Ljava/nio/ByteBuffer;IL" + Stock.MESSAGE_EXT_BATCH + ";)Ljava/nio/ByteBuffer;");

    /**
     * The entry hook of the instance method {@code target} (returning void) in codec class {@code owner}, named as the
     * target: its receiver, then its arguments, returning whether it handled the call.
     */
    private static MethodRef voidEntryHook(String owner, MethodRef target) {
        if (!target.desc.endsWith(")V")) {
            throw new IllegalArgumentException(target + " does not return void");
        }
        return new MethodRef(owner, target.name, "(L" + target.owner + ";" + target.desc.substring(1, target.desc.length() - 1) + "Z");
    }

    private Codec() {
    }
}
