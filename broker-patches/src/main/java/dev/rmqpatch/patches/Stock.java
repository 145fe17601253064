package dev.rmqpatch.patches;

import dev.rmqpatch.patches.transform.MethodRef;

/** Stock RocketMQ 4.9.0 classes and methods the patches target, as strings: never loaded by the build. */
final class Stock {

    static final String REMOTING_COMMAND = "org/apache/rocketmq/remoting/protocol/RemotingCommand";
    static final String REMOTING_SERIALIZABLE = "org/apache/rocketmq/remoting/protocol/RemotingSerializable";
    static final String SERIALIZE_TYPE = "org/apache/rocketmq/remoting/protocol/SerializeType";
    static final String COMMAND_CUSTOM_HEADER = "org/apache/rocketmq/remoting/CommandCustomHeader";
    static final String MESSAGE_DECODER = "org/apache/rocketmq/common/message/MessageDecoder";
    static final String SEND_MESSAGE_PROCESSOR = "org/apache/rocketmq/broker/processor/SendMessageProcessor";
    static final String SEND_MESSAGE_REQUEST_HEADER = "org/apache/rocketmq/common/protocol/header/SendMessageRequestHeader";
    static final String MESSAGE_EXT_BROKER_INNER = "org/apache/rocketmq/store/MessageExtBrokerInner";

    static final String CTX = "Lio/netty/channel/ChannelHandlerContext;";
    static final String BROKER_CONTROLLER = "org/apache/rocketmq/broker/BrokerController";
    static final String NAMESRV_CONTROLLER = "org/apache/rocketmq/namesrv/NamesrvController";
    static final String FILTER_SERVER_UTIL = "org/apache/rocketmq/broker/filtersrv/FilterServerUtil";

    static final MethodRef DECODE_COMMAND_CUSTOM_HEADER = new MethodRef(REMOTING_COMMAND, "decodeCommandCustomHeader",
        "(Ljava/lang/Class;)L" + COMMAND_CUSTOM_HEADER + ";");
    static final MethodRef MAKE_CUSTOM_HEADER_TO_NET = new MethodRef(REMOTING_COMMAND, "makeCustomHeaderToNet", "()V");
    /** Private static: the header half of every frame decode, JSON or ROCKETMQ by the frame's type byte. */
    static final MethodRef HEADER_DECODE = new MethodRef(REMOTING_COMMAND, "headerDecode",
        "([BL" + SERIALIZE_TYPE + ";)L" + REMOTING_COMMAND + ";");
    /** 4.9.4+: the same, reading the header from the frame's ByteBuf (its JSON branch copies it into a byte[] first). */
    static final MethodRef HEADER_DECODE_BYTE_BUF = new MethodRef(REMOTING_COMMAND, "headerDecode",
        "(Lio/netty/buffer/ByteBuf;IL" + SERIALIZE_TYPE + ";)L" + REMOTING_COMMAND + ";");
    /** Private: the header half of every frame encode, after makeCustomHeaderToNet. */
    static final MethodRef HEADER_ENCODE = new MethodRef(REMOTING_COMMAND, "headerEncode", "()[B");
    /** 4.9.4+: public, NettyEncoder's header encode straight into the frame's ByteBuf (its JSON branch calls fastjson). */
    static final MethodRef FAST_ENCODE_HEADER = new MethodRef(REMOTING_COMMAND, "fastEncodeHeader",
        "(Lio/netty/buffer/ByteBuf;)V");
    /** fastjson parse of a byte[] (through a String), used for every JSON body class too, so patched only at one site. */
    static final MethodRef JSON_DECODE = new MethodRef(REMOTING_SERIALIZABLE, "decode",
        "([BLjava/lang/Class;)Ljava/lang/Object;");
    /** fastjson print to UTF-8 bytes, used for every JSON body class too, so patched only at one site. */
    static final MethodRef JSON_ENCODE = new MethodRef(REMOTING_SERIALIZABLE, "encode", "(Ljava/lang/Object;)[B");
    static final MethodRef PROPERTIES_TO_STRING = new MethodRef(MESSAGE_DECODER, "messageProperties2String",
        "(Ljava/util/Map;)Ljava/lang/String;");
    static final MethodRef STRING_TO_PROPERTIES = new MethodRef(MESSAGE_DECODER, "string2messageProperties",
        "(Ljava/lang/String;)Ljava/util/Map;");
    /** 4.9.3+: messageProperties2String drops the last separator with it (4.9.0 keeps it). */
    static final MethodRef BUILDER_DELETE_CHAR_AT = new MethodRef("java/lang/StringBuilder", "deleteCharAt",
        "(I)Ljava/lang/StringBuilder;");
    /** 4.9.3+: string2messageProperties finds both separators with it (4.9.0 splits). */
    static final MethodRef STRING_INDEX_OF_FROM = new MethodRef("java/lang/String", "indexOf", "(II)I");
    static final MethodRef STRING_SUBSTRING = new MethodRef("java/lang/String", "substring", "(II)Ljava/lang/String;");
    /** 4.9.0's string2messageProperties: two levels of split. */
    static final MethodRef STRING_SPLIT = new MethodRef("java/lang/String", "split",
        "(Ljava/lang/String;)[Ljava/lang/String;");
    static final MethodRef ASYNC_SEND_MESSAGE = new MethodRef(SEND_MESSAGE_PROCESSOR, "asyncSendMessage",
        "(Lio/netty/channel/ChannelHandlerContext;L" + REMOTING_COMMAND + ";"
            + "Lorg/apache/rocketmq/broker/mqtrace/SendMessageContext;L" + SEND_MESSAGE_REQUEST_HEADER + ";)"
            + "Ljava/util/concurrent/CompletableFuture;");

    /** Request handler shape: {@code RemotingCommand m(ChannelHandlerContext, RemotingCommand)}. */
    static final String HANDLER_DESC = "(" + CTX + "L" + REMOTING_COMMAND + ";)L" + REMOTING_COMMAND + ";";
    static final MethodRef UPDATE_BROKER_CONFIG = new MethodRef("org/apache/rocketmq/broker/processor/AdminBrokerProcessor",
        "updateBrokerConfig", HANDLER_DESC);
    static final MethodRef UPDATE_NAMESRV_CONFIG = new MethodRef(
        "org/apache/rocketmq/namesrv/processor/DefaultRequestProcessor", "updateConfig", HANDLER_DESC);
    static final MethodRef CREATE_FILTER_SERVER = new MethodRef("org/apache/rocketmq/broker/filtersrv/FilterServerManager",
        "createFilterServer", "()V");
    static final MethodRef CALL_SHELL = new MethodRef(FILTER_SERVER_UTIL, "callShell",
        "(Ljava/lang/String;Lorg/apache/rocketmq/logging/InternalLogger;)V");
    static final MethodRef CREATE_BROKER_CONTROLLER = new MethodRef("org/apache/rocketmq/broker/BrokerStartup",
        "createBrokerController", "([Ljava/lang/String;)L" + BROKER_CONTROLLER + ";");
    static final MethodRef BROKER_CONTROLLER_START = new MethodRef(BROKER_CONTROLLER, "start", "()V");
    static final MethodRef CREATE_NAMESRV_CONTROLLER = new MethodRef("org/apache/rocketmq/namesrv/NamesrvStartup",
        "createNamesrvController", "([Ljava/lang/String;)L" + NAMESRV_CONTROLLER + ";");
    static final MethodRef NAMESRV_CONTROLLER_START = new MethodRef(NAMESRV_CONTROLLER, "start", "()V");

    static final String PIPELINE = "io/netty/channel/ChannelPipeline";
    static final String GROUP = "Lio/netty/util/concurrent/EventExecutorGroup;";
    static final String HANDLER = "Lio/netty/channel/ChannelHandler;";
    /** The server's anonymous ChannelInitializer (the 7th anonymous class of NettyRemotingServer in 4.9.0). */
    static final MethodRef SERVER_INIT_CHANNEL = new MethodRef("org/apache/rocketmq/remoting/netty/NettyRemotingServer$7",
        "initChannel", "(Lio/netty/channel/socket/SocketChannel;)V");
    static final MethodRef SERVER_HANDSHAKE_READ = new MethodRef(
        "org/apache/rocketmq/remoting/netty/NettyRemotingServer$HandshakeHandler", "channelRead0",
        "(Lio/netty/channel/ChannelHandlerContext;Lio/netty/buffer/ByteBuf;)V");
    static final MethodRef PIPELINE_ADD_LAST_NAMED = new MethodRef(PIPELINE, "addLast",
        "(" + GROUP + "Ljava/lang/String;" + HANDLER + ")L" + PIPELINE + ";");
    static final MethodRef PIPELINE_ADD_LAST_ALL = new MethodRef(PIPELINE, "addLast",
        "(" + GROUP + "[" + HANDLER + ")L" + PIPELINE + ";");
    static final MethodRef PIPELINE_ADD_AFTER = new MethodRef(PIPELINE, "addAfter",
        "(" + GROUP + "Ljava/lang/String;Ljava/lang/String;" + HANDLER + ")L" + PIPELINE + ";");
    static final MethodRef PARSE_CHANNEL_REMOTE_ADDR = new MethodRef("org/apache/rocketmq/remoting/common/RemotingHelper",
        "parseChannelRemoteAddr", "(Lio/netty/channel/Channel;)Ljava/lang/String;");
    static final MethodRef ASYNC_PROCESS_REQUEST = new MethodRef(SEND_MESSAGE_PROCESSOR, "asyncProcessRequest",
        "(" + CTX + "L" + REMOTING_COMMAND + ";Lorg/apache/rocketmq/remoting/netty/RemotingResponseCallback;)V");
    static final MethodRef THEN_ACCEPT_ASYNC = new MethodRef("java/util/concurrent/CompletableFuture", "thenAcceptAsync",
        "(Ljava/util/function/Consumer;Ljava/util/concurrent/Executor;)Ljava/util/concurrent/CompletableFuture;");

    /** The send executor, looked up for the response hand-off in asyncProcessRequest. */
    static final MethodRef GET_SEND_MESSAGE_EXECUTOR = new MethodRef(BROKER_CONTROLLER, "getSendMessageExecutor",
        "()Ljava/util/concurrent/ExecutorService;");
    /** 4.9.3+: the executor asyncProcessRequest hands the response to instead of the send executor. */
    static final MethodRef GET_PUT_MESSAGE_FUTURE_EXECUTOR = new MethodRef(BROKER_CONTROLLER, "getPutMessageFutureExecutor",
        "()Ljava/util/concurrent/ExecutorService;");
    static final MethodRef REMOTING_SERVER_START = new MethodRef("org/apache/rocketmq/remoting/netty/NettyRemotingServer",
        "start", "()V");
    static final MethodRef BOOTSTRAP_LOCAL_ADDRESS = new MethodRef("io/netty/bootstrap/ServerBootstrap", "localAddress",
        "(Ljava/net/SocketAddress;)Lio/netty/bootstrap/AbstractBootstrap;");
    static final MethodRef HA_BEGIN_ACCEPT = new MethodRef("org/apache/rocketmq/store/ha/HAService$AcceptSocketService",
        "beginAccept", "()V");
    static final MethodRef SERVER_SOCKET_BIND = new MethodRef("java/net/ServerSocket", "bind", "(Ljava/net/SocketAddress;)V");

    static final String MAPPED_FILE = "org/apache/rocketmq/store/MappedFile";
    static final String CONSUME_QUEUE = "org/apache/rocketmq/store/ConsumeQueue";
    /** Writes one consume-queue entry (offset, size, tags code) at the queue's next position. */
    static final MethodRef CQ_PUT_POSITION_INFO = new MethodRef(CONSUME_QUEUE, "putMessagePositionInfo", "(JIJJ)Z");
    /** Fills a queue file that starts past offset 0 with blank entries up to its first real one. */
    static final MethodRef CQ_FILL_PRE_BLANK = new MethodRef(CONSUME_QUEUE, "fillPreBlank", "(L" + MAPPED_FILE + ";J)V");
    /** Appends through the file channel (position, then write) in 4.9.0. */
    static final MethodRef MAPPED_FILE_APPEND_BYTES = new MethodRef(MAPPED_FILE, "appendMessage", "([B)Z");

    /** A slave's append of a block replicated from its master, under the put lock, on the HAClient thread. */
    static final MethodRef COMMIT_LOG_APPEND_DATA = new MethodRef("org/apache/rocketmq/store/CommitLog", "appendData", "(J[B)Z");
    static final String HA_SERVICE = "org/apache/rocketmq/store/ha/HAService";
    static final String GROUP_COMMIT_REQUEST = "org/apache/rocketmq/store/CommitLog$GroupCommitRequest";
    /** Queues a synchronous send's wait for the slave on the transfer thread and wakes it. */
    static final MethodRef HA_PUT_REQUEST = new MethodRef(HA_SERVICE, "putRequest", "(L" + GROUP_COMMIT_REQUEST + ";)V");
    /** Raises the slave's acknowledged offset and wakes the transfer thread; called by the thread reading the acks. */
    static final MethodRef HA_NOTIFY_TRANSFER_SOME = new MethodRef(HA_SERVICE, "notifyTransferSome", "(J)V");
    /** The transfer thread's work, every 10 ms or when woken: completes the requests the slave holds, or times them out. */
    static final MethodRef GTS_RUN = new MethodRef(HA_SERVICE + "$GroupTransferService", "run", "()V");
    static final MethodRef GTS_WAIT_FOR_RUNNING = new MethodRef(HA_SERVICE + "$GroupTransferService", "waitForRunning",
        "(J)V");
    static final MethodRef GTS_DO_WAIT_TRANSFER = new MethodRef(HA_SERVICE + "$GroupTransferService", "doWaitTransfer", "()V");
    /** 4.9.3+: the request's deadline, System.nanoTime() at its creation plus the timeout it was made with. */
    static final MethodRef GCR_GET_DEAD_LINE = new MethodRef(GROUP_COMMIT_REQUEST, "getDeadLine", "()J");
    static final MethodRef GCR_GET_NEXT_OFFSET = new MethodRef(GROUP_COMMIT_REQUEST, "getNextOffset", "()J");
    static final MethodRef GCR_WAKEUP_CUSTOMER = new MethodRef(GROUP_COMMIT_REQUEST, "wakeupCustomer",
        "(Lorg/apache/rocketmq/store/PutMessageStatus;)V");
    static final MethodRef NANO_TIME = new MethodRef("java/lang/System", "nanoTime", "()J");
    static final MethodRef PUT_OK = new MethodRef("org/apache/rocketmq/store/PutMessageStatus", "PUT_OK",
        "Lorg/apache/rocketmq/store/PutMessageStatus;");
    static final MethodRef FLUSH_SLAVE_TIMEOUT = new MethodRef("org/apache/rocketmq/store/PutMessageStatus",
        "FLUSH_SLAVE_TIMEOUT", "Lorg/apache/rocketmq/store/PutMessageStatus;");
    static final String WAIT_NOTIFY_OBJECT = "org/apache/rocketmq/store/ha/WaitNotifyObject";
    /** Called by every synchronous put on a SYNC_MASTER: sets every HA write thread's flag and notifies, under the monitor. */
    static final MethodRef WNO_WAKEUP_ALL = new MethodRef(WAIT_NOTIFY_OBJECT, "wakeupAll", "()V");
    /** An HA write thread with nothing to send: returns when its flag is set, else waits on the monitor up to the interval. */
    static final MethodRef WNO_ALL_WAIT_FOR_RUNNING = new MethodRef(WAIT_NOTIFY_OBJECT, "allWaitForRunning", "(J)V");
    /** An HA write thread leaving: drops its flag. */
    static final MethodRef WNO_REMOVE_WAITING_THREAD = new MethodRef(WAIT_NOTIFY_OBJECT, "removeFromWaitingThreadTable", "()V");

    static final String HA_CLIENT = HA_SERVICE + "$HAClient";
    static final String DEFAULT_MESSAGE_STORE = "org/apache/rocketmq/store/DefaultMessageStore";
    static final String COMMIT_LOG = "org/apache/rocketmq/store/CommitLog";
    /** A slave's HAClient: cuts the blocks its master pushes out of its read buffer and appends them, one by one. */
    static final MethodRef HA_CLIENT_DISPATCH_READ = new MethodRef(HA_CLIENT, "dispatchReadRequest", "()Z");
    /** A slave's acknowledgement: writes the store's max offset to the master when it grew since the last one. */
    static final MethodRef HA_CLIENT_REPORT_PLUS = new MethodRef(HA_CLIENT, "reportSlaveMaxOffsetPlus", "()Z");
    /** A slave's append of a replicated block: the shut-down check, CommitLog.appendData, the reput wake-up. */
    static final MethodRef STORE_APPEND_TO_COMMIT_LOG = new MethodRef(DEFAULT_MESSAGE_STORE, "appendToCommitLog", "(J[B)Z");

    /** RemotingSerializable's static initialiser: every JSON header, body and config file goes through the class. */
    static final MethodRef REMOTING_SERIALIZABLE_INIT = new MethodRef(REMOTING_SERIALIZABLE, "<clinit>", "()V");
    /** Every frame decode (a frame without its total-length word): header length word, header, body. */
    static final MethodRef FRAME_DECODE = new MethodRef(REMOTING_COMMAND, "decode",
        "(Ljava/nio/ByteBuffer;)L" + REMOTING_COMMAND + ";");
    /** The ROCKETMQ binary header format (serialize type byte 1): fixed fields, remark, ext fields by length. */
    static final MethodRef ROCKETMQ_HEADER_DECODE = new MethodRef("org/apache/rocketmq/remoting/protocol/RocketMQSerializable",
        "rocketMQProtocolDecode", "([B)L" + REMOTING_COMMAND + ";");
    /** Private static: reads one length-prefixed part of a compressed REGISTER_BROKER body (name server). */
    static final MethodRef REGISTER_BROKER_BODY_READ_BYTES = new MethodRef(
        "org/apache/rocketmq/common/protocol/body/RegisterBrokerBody", "readBytes", "(Ljava/util/zip/InflaterInputStream;I)[B");
    /** Looks a consumer group up, creating it when auto-creation is on; every group-keyed request starts here. */
    static final MethodRef FIND_SUBSCRIPTION_GROUP_CONFIG = new MethodRef(
        "org/apache/rocketmq/broker/subscription/SubscriptionGroupManager", "findSubscriptionGroupConfig",
        "(Ljava/lang/String;)Lorg/apache/rocketmq/common/subscription/SubscriptionGroupConfig;");
    /** QUERY_MESSAGE's store lookup, which calls the index with the request's maxNum. */
    static final MethodRef STORE_QUERY_MESSAGE = new MethodRef("org/apache/rocketmq/store/DefaultMessageStore", "queryMessage",
        "(Ljava/lang/String;Ljava/lang/String;IJJ)Lorg/apache/rocketmq/store/QueryMessageResult;");
    static final MethodRef INDEX_QUERY_OFFSET = new MethodRef("org/apache/rocketmq/store/index/IndexService", "queryOffset",
        "(Ljava/lang/String;Ljava/lang/String;IJJ)Lorg/apache/rocketmq/store/index/QueryOffsetResult;");
    /** Private handler of GET_BROKER_CLUSTER_ACL_CONFIG (request code 54). */
    static final MethodRef GET_BROKER_CLUSTER_ACL_CONFIG = new MethodRef(
        "org/apache/rocketmq/broker/processor/AdminBrokerProcessor", "getBrokerClusterAclConfig", HANDLER_DESC);
    /** Private: loads the ACL validators and registers the RPC hook that checks every request with them. */
    static final MethodRef INITIAL_ACL = new MethodRef(BROKER_CONTROLLER, "initialAcl", "()V");

    static final String STORE_STATS_SERVICE = "org/apache/rocketmq/store/StoreStatsService";
    static final String ATOMIC_LONG = "java/util/concurrent/atomic/AtomicLong";
    /** Get-or-create of a topic's put counters; every put (and a slave's every replicated message) adds to both. */
    static final MethodRef SSS_TOPIC_TIMES = new MethodRef(STORE_STATS_SERVICE, "getSinglePutMessageTopicTimesTotal",
        "(Ljava/lang/String;)L" + ATOMIC_LONG + ";");
    static final MethodRef SSS_TOPIC_SIZE = new MethodRef(STORE_STATS_SERVICE, "getSinglePutMessageTopicSizeTotal",
        SSS_TOPIC_TIMES.desc);
    /** The two readers of the per-topic counters (sums over the maps): runtime info, BrokerStats, TPS sampling. */
    static final MethodRef SSS_TOPIC_TIMES_MAP = new MethodRef(STORE_STATS_SERVICE, "getPutMessageTopicTimesTotal",
        "()Ljava/util/Map;");
    static final MethodRef SSS_TOPIC_SIZE_MAP = new MethodRef(STORE_STATS_SERVICE, "getPutMessageTopicSizeTotal",
        "()Ljava/util/Map;");
    /** StoreStatsService's private maps, named like methods (owner, name, field descriptor). */
    static final MethodRef SSS_TIMES_FIELD = new MethodRef(STORE_STATS_SERVICE, "putMessageTopicTimesTotal",
        "Ljava/util/concurrent/ConcurrentMap;");
    static final MethodRef SSS_SIZE_FIELD = new MethodRef(STORE_STATS_SERVICE, "putMessageTopicSizeTotal",
        "Ljava/util/concurrent/ConcurrentMap;");
    static final MethodRef SSS_TIMES_TOTAL = new MethodRef(STORE_STATS_SERVICE, "getPutMessageTimesTotal", "()J");
    static final MethodRef SSS_SIZE_TOTAL = new MethodRef(STORE_STATS_SERVICE, "getPutMessageSizeTotal", "()J");
    static final MethodRef ATOMIC_LONG_INCREMENT = new MethodRef(ATOMIC_LONG, "incrementAndGet", "()J");
    static final MethodRef ATOMIC_LONG_ADD = new MethodRef(ATOMIC_LONG, "addAndGet", "(J)J");
    static final String MESSAGE_EXT_BATCH = "org/apache/rocketmq/common/message/MessageExtBatch";
    /** The put paths, each ending with the per-topic statistics of what it wrote. */
    static final MethodRef COMMIT_LOG_ASYNC_PUT = new MethodRef(COMMIT_LOG, "asyncPutMessage",
        "(L" + MESSAGE_EXT_BROKER_INNER + ";)Ljava/util/concurrent/CompletableFuture;");
    static final MethodRef COMMIT_LOG_PUT = new MethodRef(COMMIT_LOG, "putMessage",
        "(L" + MESSAGE_EXT_BROKER_INNER + ";)Lorg/apache/rocketmq/store/PutMessageResult;");
    static final MethodRef COMMIT_LOG_ASYNC_PUT_BATCH = new MethodRef(COMMIT_LOG, "asyncPutMessages",
        "(L" + MESSAGE_EXT_BATCH + ";)Ljava/util/concurrent/CompletableFuture;");
    static final MethodRef COMMIT_LOG_PUT_BATCH = new MethodRef(COMMIT_LOG, "putMessages",
        "(L" + MESSAGE_EXT_BATCH + ";)Lorg/apache/rocketmq/store/PutMessageResult;");
    /** P36: a batch's messages encoded (outside the put lock) into the thread's batch buffer, before the append. */
    static final String BATCH_ENCODER = COMMIT_LOG + "$MessageExtBatchEncoder";
    static final MethodRef BATCH_ENCODE = new MethodRef(BATCH_ENCODER, "encode",
        "(L" + MESSAGE_EXT_BATCH + ";)Ljava/nio/ByteBuffer;");
    /** P20: the single-message append under the put lock, and the lock it is called under. */
    static final String APPEND_CALLBACK = COMMIT_LOG + "$DefaultAppendMessageCallback";
    static final MethodRef APPEND_CALLBACK_DO_APPEND = new MethodRef(APPEND_CALLBACK, "doAppend",
        "(JLjava/nio/ByteBuffer;IL" + MESSAGE_EXT_BROKER_INNER + ";)Lorg/apache/rocketmq/store/AppendMessageResult;");
    static final String PUT_MESSAGE_LOCK = "org/apache/rocketmq/store/PutMessageLock";
    static final MethodRef PUT_MESSAGE_LOCK_LOCK = new MethodRef(PUT_MESSAGE_LOCK, "lock", "()V");
    /** A slave's (or a DLedger follower's) dispatch of replicated messages, counting each in the topic counters. */
    static final MethodRef REPUT_DO_REPUT = new MethodRef("org/apache/rocketmq/store/DefaultMessageStore$ReputMessageService",
        "doReput", "()V");
    /** P38's targets: the dispatch thread's loop and sleep, the store's start, the calls that follow each append. */
    static final String REPUT_SERVICE = DEFAULT_MESSAGE_STORE + "$ReputMessageService";
    static final MethodRef REPUT_RUN = new MethodRef(REPUT_SERVICE, "run", "()V");
    static final MethodRef THREAD_SLEEP = new MethodRef("java/lang/Thread", "sleep", "(J)V");
    static final MethodRef STORE_START = new MethodRef(DEFAULT_MESSAGE_STORE, "start", "()V");
    static final String APPEND_MESSAGE_RESULT = "org/apache/rocketmq/store/AppendMessageResult";
    static final MethodRef COMMIT_LOG_SUBMIT_FLUSH = new MethodRef(COMMIT_LOG, "submitFlushRequest",
        "(L" + APPEND_MESSAGE_RESULT + ";Lorg/apache/rocketmq/common/message/MessageExt;)"
        + "Ljava/util/concurrent/CompletableFuture;");
    /** P39's targets: the fast-failure check's start (its 10 ms timer) and the check's read of the broker's config. */
    static final String BROKER_FAST_FAILURE = "org/apache/rocketmq/broker/latency/BrokerFastFailure";
    static final MethodRef FAST_FAILURE_START = new MethodRef(BROKER_FAST_FAILURE, "start", "()V");
    static final MethodRef FAST_FAILURE_CHECK_RUN = new MethodRef(BROKER_FAST_FAILURE + "$1", "run", "()V");
    static final MethodRef SCHEDULE_AT_FIXED_RATE = new MethodRef("java/util/concurrent/ScheduledExecutorService",
        "scheduleAtFixedRate", "(Ljava/lang/Runnable;JJLjava/util/concurrent/TimeUnit;)Ljava/util/concurrent/ScheduledFuture;");
    static final MethodRef GET_BROKER_CONFIG = new MethodRef(BROKER_CONTROLLER, "getBrokerConfig",
        "()Lorg/apache/rocketmq/common/BrokerConfig;");
    /** P40's targets: a delay level's task (its read of the queue, its rescheduling) and the consume queues' dispatch. */
    static final String SCHEDULE_TASK = "org/apache/rocketmq/store/schedule/ScheduleMessageService$DeliverDelayedMessageTimerTask";
    static final MethodRef SCHEDULE_TASK_EXECUTE = new MethodRef(SCHEDULE_TASK, "executeOnTimeup", "()V");
    static final MethodRef SCHEDULE_TASK_NEXT = new MethodRef(SCHEDULE_TASK, "scheduleNextTimerTask", "(JJ)V");
    static final MethodRef CQ_GET_INDEX_BUFFER = new MethodRef(CONSUME_QUEUE, "getIndexBuffer",
        "(J)Lorg/apache/rocketmq/store/SelectMappedBufferResult;");
    static final MethodRef SCHEDULE_ONCE = new MethodRef("java/util/concurrent/ScheduledExecutorService", "schedule",
        "(Ljava/lang/Runnable;JLjava/util/concurrent/TimeUnit;)Ljava/util/concurrent/ScheduledFuture;");
    static final MethodRef TIMER_SCHEDULE = new MethodRef("java/util/Timer", "schedule", "(Ljava/util/TimerTask;J)V");
    static final MethodRef BUILD_CQ_DISPATCH = new MethodRef(DEFAULT_MESSAGE_STORE + "$CommitLogDispatcherBuildConsumeQueue",
        "dispatch", "(Lorg/apache/rocketmq/store/DispatchRequest;)V");
    static final MethodRef STORE_PUT_POSITION_INFO = new MethodRef(DEFAULT_MESSAGE_STORE, "putMessagePositionInfo",
        "(Lorg/apache/rocketmq/store/DispatchRequest;)V");
    static final MethodRef COMMIT_LOG_HANDLE_DISK_FLUSH = new MethodRef(COMMIT_LOG, "handleDiskFlush",
        "(L" + APPEND_MESSAGE_RESULT + ";Lorg/apache/rocketmq/store/PutMessageResult;"
        + "Lorg/apache/rocketmq/common/message/MessageExt;)V");
    /** P17's targets: where 4.9.0 sizes socket buffers, and the calls that size them. */
    static final String NETTY_SYSTEM_CONFIG = "org/apache/rocketmq/remoting/netty/NettySystemConfig";
    static final MethodRef NETTY_SYSTEM_CONFIG_INIT = new MethodRef(NETTY_SYSTEM_CONFIG, "<clinit>", "()V");
    static final MethodRef SYSTEM_GET_PROPERTY = new MethodRef("java/lang/System", "getProperty",
        "(Ljava/lang/String;)Ljava/lang/String;");
    static final MethodRef SYSTEM_GET_PROPERTY_DEFAULT = new MethodRef("java/lang/System", "getProperty",
        "(Ljava/lang/String;Ljava/lang/String;)Ljava/lang/String;");
    static final MethodRef SERVER_CHILD_OPTION = new MethodRef("io/netty/bootstrap/ServerBootstrap", "childOption",
        "(Lio/netty/channel/ChannelOption;Ljava/lang/Object;)Lio/netty/bootstrap/ServerBootstrap;");
    static final MethodRef REMOTING_CLIENT_START = new MethodRef("org/apache/rocketmq/remoting/netty/NettyRemotingClient",
        "start", "()V");
    static final MethodRef CLIENT_BOOTSTRAP_OPTION = new MethodRef("io/netty/bootstrap/Bootstrap", "option",
        "(Lio/netty/channel/ChannelOption;Ljava/lang/Object;)Lio/netty/bootstrap/AbstractBootstrap;");
    /** The slave's HA connection (HAClient) is opened here, with fixed 64 KB buffers. */
    static final MethodRef REMOTING_UTIL_CONNECT = new MethodRef("org/apache/rocketmq/remoting/common/RemotingUtil",
        "connect", "(Ljava/net/SocketAddress;I)Ljava/nio/channels/SocketChannel;");
    /** The master's side of an HA connection, accepted by AcceptSocketService, sized to 64 KB here. */
    static final MethodRef HA_CONNECTION_INIT = new MethodRef("org/apache/rocketmq/store/ha/HAConnection", "<init>",
        "(L" + HA_SERVICE + ";Ljava/nio/channels/SocketChannel;)V");
    static final MethodRef SOCKET_SET_RECEIVE_BUFFER_SIZE = new MethodRef("java/net/Socket", "setReceiveBufferSize", "(I)V");
    static final MethodRef SOCKET_SET_SEND_BUFFER_SIZE = new MethodRef("java/net/Socket", "setSendBufferSize", "(I)V");

    // P21: StatsItem's counters and the store's put-latency histogram.
    static final String STATS_ITEM = "org/apache/rocketmq/common/stats/StatsItem";
    static final String STATS_ITEM_SET = "org/apache/rocketmq/common/stats/StatsItemSet";
    static final String BROKER_STATS_MANAGER = "org/apache/rocketmq/store/stats/BrokerStatsManager";
    /** Builds {@code value} and {@code times} ({@code new AtomicLong(0)} each). */
    static final MethodRef STATS_ITEM_INIT = new MethodRef(STATS_ITEM, "<init>",
        "(Ljava/lang/String;Ljava/lang/String;Ljava/util/concurrent/ScheduledExecutorService;"
            + "Lorg/apache/rocketmq/logging/InternalLogger;)V");
    /** The readers of {@code value} and {@code times}: each snapshots both with {@code get()}. */
    static final MethodRef STATS_ITEM_SAMPLING_SECONDS = new MethodRef(STATS_ITEM, "samplingInSeconds", "()V");
    static final MethodRef STATS_ITEM_SAMPLING_MINUTES = new MethodRef(STATS_ITEM, "samplingInMinutes", "()V");
    static final MethodRef STATS_ITEM_SAMPLING_HOUR = new MethodRef(STATS_ITEM, "samplingInHour", "()V");
    /** The writers: {@code getValue().addAndGet(v)} and {@code getTimes().addAndGet(t)}, results discarded. */
    static final MethodRef STATS_ITEM_SET_ADD_VALUE = new MethodRef(STATS_ITEM_SET, "addValue", "(Ljava/lang/String;II)V");
    static final MethodRef STATS_ITEM_SET_ADD_RT_VALUE = new MethodRef(STATS_ITEM_SET, "addRTValue",
        "(Ljava/lang/String;II)V");
    static final MethodRef BSM_INC_BROKER_PUT_NUMS = new MethodRef(BROKER_STATS_MANAGER, "incBrokerPutNums", "()V");
    static final MethodRef BSM_INC_BROKER_PUT_NUMS_BY = new MethodRef(BROKER_STATS_MANAGER, "incBrokerPutNums", "(I)V");
    static final MethodRef BSM_INC_BROKER_GET_NUMS = new MethodRef(BROKER_STATS_MANAGER, "incBrokerGetNums", "(I)V");
    static final MethodRef ATOMIC_LONG_GET = new MethodRef(ATOMIC_LONG, "get", "()J");
    static final MethodRef STATS_ITEM_GET_VALUE = new MethodRef(STATS_ITEM, "getValue", "()L" + ATOMIC_LONG + ";");
    static final MethodRef STATS_ITEM_GET_TIMES = new MethodRef(STATS_ITEM, "getTimes", "()L" + ATOMIC_LONG + ";");
    /** StatsItem's private counter fields, named like methods (owner, name, field descriptor). */
    static final MethodRef STATS_ITEM_VALUE_FIELD = new MethodRef(STATS_ITEM, "value", "L" + ATOMIC_LONG + ";");
    static final MethodRef STATS_ITEM_TIMES_FIELD = new MethodRef(STATS_ITEM, "times", "L" + ATOMIC_LONG + ";");
    /** The histogram: built (13 {@code new AtomicLong(0)}), one bucket incremented per put, read by two methods. */
    static final MethodRef SSS_INIT_DISTRIBUTE_TIME = new MethodRef(STORE_STATS_SERVICE, "initPutMessageDistributeTime",
        "()[L" + ATOMIC_LONG + ";");
    static final MethodRef SSS_SET_PUT_TIME_MAX = new MethodRef(STORE_STATS_SERVICE, "setPutMessageEntireTimeMax", "(J)V");
    static final MethodRef SSS_DISTRIBUTE_TIME_TO_STRING = new MethodRef(STORE_STATS_SERVICE,
        "putMessageDistributeTimeToString", "()Ljava/lang/String;");
    static final MethodRef SSS_PRINT_TPS = new MethodRef(STORE_STATS_SERVICE, "printTps", "()V");

    // P22: CommitLog$GroupCommitService (SYNC_FLUSH).
    static final String GROUP_COMMIT_SERVICE = COMMIT_LOG + "$GroupCommitService";
    static final MethodRef GCS_INIT = new MethodRef(GROUP_COMMIT_SERVICE, "<init>", "(L" + COMMIT_LOG + ";)V");
    static final MethodRef GCS_PUT_REQUEST = new MethodRef(GROUP_COMMIT_SERVICE, "putRequest",
        "(L" + GROUP_COMMIT_REQUEST + ";)V");
    static final MethodRef GCS_SWAP_REQUESTS = new MethodRef(GROUP_COMMIT_SERVICE, "swapRequests", "()V");
    static final MethodRef GCS_DO_COMMIT = new MethodRef(GROUP_COMMIT_SERVICE, "doCommit", "()V");
    /** Fields, as MethodRefs (owner, name, descriptor) for the delegations' field reads. */
    static final MethodRef GCS_REQUESTS_WRITE = new MethodRef(GROUP_COMMIT_SERVICE, "requestsWrite", "Ljava/util/List;");
    static final MethodRef GCS_THIS0 = new MethodRef(GROUP_COMMIT_SERVICE, "this$0", "L" + COMMIT_LOG + ";");
    static final MethodRef COMMIT_LOG_MAPPED_FILE_QUEUE = new MethodRef(COMMIT_LOG, "mappedFileQueue",
        "Lorg/apache/rocketmq/store/MappedFileQueue;");
    static final MethodRef COMMIT_LOG_STORE = new MethodRef(COMMIT_LOG, "defaultMessageStore",
        "Lorg/apache/rocketmq/store/DefaultMessageStore;");

    // P23: the master's HA write thread.
    static final String HA_WRITE_SOCKET_SERVICE = "org/apache/rocketmq/store/ha/HAConnection$WriteSocketService";
    static final MethodRef HA_WRITE_RUN = new MethodRef(HA_WRITE_SOCKET_SERVICE, "run", "()V");
    static final MethodRef HA_WRITE_TRANSFER_DATA = new MethodRef(HA_WRITE_SOCKET_SERVICE, "transferData", "()Z");
    static final String SELECT_MAPPED_BUFFER_RESULT = "org/apache/rocketmq/store/SelectMappedBufferResult";
    /** A transfer's body: called once in run(), where the body is limited to the transfer's size. */
    static final MethodRef SMBR_GET_BYTE_BUFFER = new MethodRef(SELECT_MAPPED_BUFFER_RESULT, "getByteBuffer",
        "()Ljava/nio/ByteBuffer;");
    /** transferData()'s two writes: the header's, then the body's. */
    static final MethodRef SOCKET_CHANNEL_WRITE = new MethodRef("java/nio/channels/SocketChannel", "write",
        "(Ljava/nio/ByteBuffer;)I");

    // P24: the two HA read loops.
    /** The master's reader of a slave's acknowledgements: reads until three reads in a row return 0. */
    static final MethodRef HA_READ_PROCESS_READ = new MethodRef("org/apache/rocketmq/store/ha/HAConnection$ReadSocketService",
        "processReadEvent", "()Z");
    /** The slave's reader of its master's transfers: reads until three reads in a row return 0. */
    static final MethodRef HA_CLIENT_PROCESS_READ = new MethodRef(HA_CLIENT, "processReadEvent", "()Z");
    /** Each loop's one read of the socket into its buffer. */
    static final MethodRef SOCKET_CHANNEL_READ = new MethodRef("java/nio/channels/SocketChannel", "read",
        "(Ljava/nio/ByteBuffer;)I");

    // P26: the client's pipeline (NettyRemotingClient.start's channel initializer).
    static final String NETTY_REMOTING_CLIENT = "org/apache/rocketmq/remoting/netty/NettyRemotingClient";
    /** The client's anonymous ChannelInitializer (the 4th anonymous class of NettyRemotingClient in 4.9.0). */
    static final MethodRef CLIENT_INIT_CHANNEL = new MethodRef(NETTY_REMOTING_CLIENT + "$4", "initChannel",
        "(Lio/netty/channel/socket/SocketChannel;)V");
    /** The TLS handler, added first when the client uses TLS. */
    static final MethodRef PIPELINE_ADD_FIRST_NAMED = new MethodRef(PIPELINE, "addFirst",
        "(" + GROUP + "Ljava/lang/String;" + HANDLER + ")L" + PIPELINE + ";");

    /** The initializer's first call, {@code ch.pipeline()} (P32). */
    static final MethodRef SOCKET_CHANNEL_PIPELINE = new MethodRef("io/netty/channel/socket/SocketChannel", "pipeline",
        "()L" + PIPELINE + ";");

    // P27: a producer's unique key per message.
    static final String MESSAGE_CLIENT_ID_SETTER = "org/apache/rocketmq/common/message/MessageClientIDSetter";
    static final MethodRef CREATE_UNIQ_ID = new MethodRef(MESSAGE_CLIENT_ID_SETTER, "createUniqID", "()Ljava/lang/String;");
    /** Private static: the key's 6 varying bytes (time since the month's start, counter); rolls the month over. */
    static final MethodRef CREATE_UNIQ_ID_BUFFER = new MethodRef(MESSAGE_CLIENT_ID_SETTER, "createUniqIDBuffer", "()[B");
    /** Private static synchronized: sets startTime and nextStartTime to the month of its argument. */
    static final MethodRef SET_START_TIME = new MethodRef(MESSAGE_CLIENT_ID_SETTER, "setStartTime", "(J)V");
    /** Fields, as MethodRefs (owner, name, descriptor): the key's private static state. */
    static final MethodRef UNIQ_ID_FIX_STRING = new MethodRef(MESSAGE_CLIENT_ID_SETTER, "FIX_STRING", "Ljava/lang/String;");
    static final MethodRef UNIQ_ID_COUNTER = new MethodRef(MESSAGE_CLIENT_ID_SETTER, "COUNTER",
        "Ljava/util/concurrent/atomic/AtomicInteger;");
    static final MethodRef UNIQ_ID_START_TIME = new MethodRef(MESSAGE_CLIENT_ID_SETTER, "startTime", "J");
    static final MethodRef UNIQ_ID_NEXT_START_TIME = new MethodRef(MESSAGE_CLIENT_ID_SETTER, "nextStartTime", "J");
    static final MethodRef BYTES_TO_STRING = new MethodRef("org/apache/rocketmq/common/UtilAll", "bytes2string",
        "([B)Ljava/lang/String;");
    static final MethodRef ATOMIC_INTEGER_GET_AND_INCREMENT = new MethodRef("java/util/concurrent/atomic/AtomicInteger",
        "getAndIncrement", "()I");
    static final MethodRef CURRENT_TIME_MILLIS = new MethodRef("java/lang/System", "currentTimeMillis", "()J");
    static final MethodRef BYTE_BUFFER_PUT_INT = new MethodRef("java/nio/ByteBuffer", "putInt", "(I)Ljava/nio/ByteBuffer;");
    static final MethodRef BYTE_BUFFER_PUT_SHORT = new MethodRef("java/nio/ByteBuffer", "putShort",
        "(S)Ljava/nio/ByteBuffer;");
    // P28: the consume-side decode of stored messages (every pull response's body, in a consumer).
    static final String MESSAGE_EXT = "org/apache/rocketmq/common/message/MessageExt";
    /** A pull response's body to client messages, until the first record that fails; called per pull by the client. */
    static final MethodRef MESSAGE_DECODES = new MethodRef(MESSAGE_DECODER, "decodes",
        "(Ljava/nio/ByteBuffer;Z)Ljava/util/List;");
    /** One stored record to a message (readBody, deCompressBody, isClient): every other decode overload calls it. */
    static final MethodRef MESSAGE_DECODE = new MethodRef(MESSAGE_DECODER, "decode",
        "(Ljava/nio/ByteBuffer;ZZZ)L" + MESSAGE_EXT + ";");
    /** What decodes calls per record (4.9.0 to 4.9.8): clientDecode(buffer, readBody), i.e. decode(.., true, true). */
    static final MethodRef CLIENT_DECODE = new MethodRef(MESSAGE_DECODER, "clientDecode",
        "(Ljava/nio/ByteBuffer;Z)L" + MESSAGE_EXT + ";");
    /** 4.9.0 to 4.9.3: a compressed body is inflated with zlib. */
    static final MethodRef UTIL_UNCOMPRESS = new MethodRef("org/apache/rocketmq/common/UtilAll", "uncompress", "([B)[B");
    /** 4.9.4+: a compressed body is inflated by the compressor of the sysFlag's compression type. */
    static final String COMPRESSION = "org/apache/rocketmq/common/compression/";
    static final MethodRef GET_COMPRESSION_TYPE = new MethodRef("org/apache/rocketmq/common/sysflag/MessageSysFlag",
        "getCompressionType", "(I)L" + COMPRESSION + "CompressionType;");
    static final MethodRef GET_COMPRESSOR = new MethodRef(COMPRESSION + "CompressorFactory", "getCompressor",
        "(L" + COMPRESSION + "CompressionType;)L" + COMPRESSION + "Compressor;");
    static final MethodRef COMPRESSOR_DECOMPRESS = new MethodRef(COMPRESSION + "Compressor", "decompress", "([B)[B");
    static final MethodRef CREATE_MESSAGE_ID = new MethodRef(MESSAGE_DECODER, "createMessageId",
        "(Ljava/nio/ByteBuffer;Ljava/nio/ByteBuffer;J)Ljava/lang/String;");
    static final MethodRef SET_OFFSET_MSG_ID = new MethodRef("org/apache/rocketmq/common/message/MessageClientExt",
        "setOffsetMsgId", "(Ljava/lang/String;)V");

    // P30: where a request is handed to its processor's executor.
    static final MethodRef PROCESS_REQUEST_COMMAND = new MethodRef("org/apache/rocketmq/remoting/netty/NettyRemotingAbstract",
        "processRequestCommand", "(" + CTX + "L" + REMOTING_COMMAND + ";)V");
    static final String REQUEST_TASK = "org/apache/rocketmq/remoting/netty/RequestTask";
    static final String REQUEST_TASK_INIT = "(Ljava/lang/Runnable;Lio/netty/channel/Channel;L" + REMOTING_COMMAND + ";)V";
    static final MethodRef EXECUTOR_SUBMIT = new MethodRef("java/util/concurrent/ExecutorService", "submit",
        "(Ljava/lang/Runnable;)Ljava/util/concurrent/Future;");

    // P31: where a response's callback is handed to the client's callback executor.
    static final MethodRef EXECUTE_INVOKE_CALLBACK = new MethodRef("org/apache/rocketmq/remoting/netty/NettyRemotingAbstract",
        "executeInvokeCallback", "(Lorg/apache/rocketmq/remoting/netty/ResponseFuture;)V");
    /** The client's asynchronous pull: wraps the PullCallback in an InvokeCallback and calls invokeAsync. */
    static final MethodRef PULL_MESSAGE_ASYNC = new MethodRef("org/apache/rocketmq/client/impl/MQClientAPIImpl",
        "pullMessageAsync", "(Ljava/lang/String;L" + REMOTING_COMMAND + ";JLorg/apache/rocketmq/client/consumer/PullCallback;)V");
    static final MethodRef REMOTING_CLIENT_INVOKE_ASYNC = new MethodRef("org/apache/rocketmq/remoting/RemotingClient",
        "invokeAsync", "(Ljava/lang/String;L" + REMOTING_COMMAND + ";JLorg/apache/rocketmq/remoting/InvokeCallback;)V");

    // P33: where a push consumer's answered pull queues the next, and the points of the pull path that can wait.
    /** The push consumer's own PullCallback's success branch (the anonymous class of {@code pullMessage}). */
    static final MethodRef PUSH_PULL_ON_SUCCESS = new MethodRef(
        "org/apache/rocketmq/client/impl/consumer/DefaultMQPushConsumerImpl$1", "onSuccess",
        "(Lorg/apache/rocketmq/client/consumer/PullResult;)V");
    static final MethodRef EXECUTE_PULL_REQUEST_IMMEDIATELY = new MethodRef(
        "org/apache/rocketmq/client/impl/consumer/DefaultMQPushConsumerImpl", "executePullRequestImmediately",
        "(Lorg/apache/rocketmq/client/impl/consumer/PullRequest;)V");
    static final MethodRef INVOKE_ASYNC_IMPL = new MethodRef("org/apache/rocketmq/remoting/netty/NettyRemotingAbstract",
        "invokeAsyncImpl", "(Lio/netty/channel/Channel;L" + REMOTING_COMMAND + ";JLorg/apache/rocketmq/remoting/InvokeCallback;)V");
    static final MethodRef SEMAPHORE_TRY_ACQUIRE_TIMED = new MethodRef("java/util/concurrent/Semaphore", "tryAcquire",
        "(JLjava/util/concurrent/TimeUnit;)Z");
    /** A topic's route from a name server, under {@code lockNamesrv}: every route look-up of the client comes here. */
    static final MethodRef UPDATE_TOPIC_ROUTE = new MethodRef("org/apache/rocketmq/client/impl/factory/MQClientInstance",
        "updateTopicRouteInfoFromNameServer", "(Ljava/lang/String;ZLorg/apache/rocketmq/client/producer/DefaultMQProducer;)Z");
    static final MethodRef LOCK_TRY_LOCK_TIMED = new MethodRef("java/util/concurrent/locks/Lock", "tryLock",
        "(JLjava/util/concurrent/TimeUnit;)Z");
    static final MethodRef CLIENT_CREATE_CHANNEL = new MethodRef(NETTY_REMOTING_CLIENT, "createChannel",
        "(Ljava/lang/String;)Lio/netty/channel/Channel;");
    static final MethodRef CLIENT_INVOKE_SYNC = new MethodRef(NETTY_REMOTING_CLIENT, "invokeSync",
        "(Ljava/lang/String;L" + REMOTING_COMMAND + ";J)L" + REMOTING_COMMAND + ";");

    // P34: the regular expression every topic name is checked with, on the broker per message and in a producer per send.
    static final String REGEX_MATCHER_DESC = "(Ljava/lang/String;Ljava/util/regex/Pattern;)Z";
    static final String TOPIC_VALIDATOR = "org/apache/rocketmq/common/topic/TopicValidator";
    /** The broker's check of a sent message's topic ({@code AbstractSendMessageProcessor.msgCheck}). */
    static final MethodRef TOPIC_VALIDATOR_VALIDATE_TOPIC = new MethodRef(TOPIC_VALIDATOR, "validateTopic",
        "(Ljava/lang/String;L" + REMOTING_COMMAND + ";)Z");
    /** Private static: {@code pattern.matcher(origin).matches()}, true for a null pattern. */
    static final MethodRef TOPIC_VALIDATOR_REGEX_MATCHER = new MethodRef(TOPIC_VALIDATOR, "regularExpressionMatcher",
        REGEX_MATCHER_DESC);
    static final String CLIENT_VALIDATORS = "org/apache/rocketmq/client/Validators";
    /** The client's check of a topic: twice per send ({@code DefaultMQProducer.send}, {@code sendDefaultImpl}). */
    static final MethodRef VALIDATORS_CHECK_TOPIC = new MethodRef(CLIENT_VALIDATORS, "checkTopic", "(Ljava/lang/String;)V");
    static final MethodRef VALIDATORS_REGEX_MATCHER = new MethodRef(CLIENT_VALIDATORS, "regularExpressionMatcher",
        REGEX_MATCHER_DESC);

    // P35: the name-server address matched against the cloud-instance pattern whenever a client asks for its namespace.
    static final MethodRef CLIENT_CONFIG_GET_NAMESPACE = new MethodRef("org/apache/rocketmq/client/ClientConfig",
        "getNamespace", "()Ljava/lang/String;");
    static final MethodRef VALIDATE_INSTANCE_ENDPOINT = new MethodRef(
        "org/apache/rocketmq/common/utils/NameServerAddressUtils", "validateInstanceEndpoint", "(Ljava/lang/String;)Z");

    private Stock() {
    }
}
