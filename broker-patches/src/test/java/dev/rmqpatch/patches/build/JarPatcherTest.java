package dev.rmqpatch.patches.build;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.jar.JarFile;

import dev.rmqpatch.patches.Patch;
import dev.rmqpatch.patches.PatchTargets;
import dev.rmqpatch.patches.Patches;
import dev.rmqpatch.patches.StartupReport;
import dev.rmqpatch.patches.transform.DelegateBody;
import dev.rmqpatch.patches.transform.DelegateFields;
import dev.rmqpatch.patches.transform.EntryHook;
import dev.rmqpatch.patches.transform.FilterArgument;
import dev.rmqpatch.patches.transform.MethodEdit;
import dev.rmqpatch.patches.transform.MethodRef;
import dev.rmqpatch.patches.transform.PatchException;
import dev.rmqpatch.patches.transform.ReplaceAllocation;
import dev.rmqpatch.patches.transform.ReplaceCall;
import dev.rmqpatch.patches.transform.Switch;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.objectweb.asm.ClassReader;
import org.objectweb.asm.Opcodes;
import org.objectweb.asm.tree.AbstractInsnNode;
import org.objectweb.asm.tree.ClassNode;
import org.objectweb.asm.tree.FieldInsnNode;
import org.objectweb.asm.tree.MethodInsnNode;
import org.objectweb.asm.tree.MethodNode;

/** The patcher over the real stock jars: what it writes, and how it fails when a patch does not fit the jars. */
class JarPatcherTest {

    private static final String REMOTING_COMMAND = "org/apache/rocketmq/remoting/protocol/RemotingCommand";
    private static final String MESSAGE_DECODER = "org/apache/rocketmq/common/message/MessageDecoder";
    private static final String SEND_PROCESSOR = "org/apache/rocketmq/broker/processor/SendMessageProcessor";
    private static final String CONSUME_QUEUE = "org/apache/rocketmq/store/ConsumeQueue";
    private static final String MAPPED_FILE = "org/apache/rocketmq/store/MappedFile";
    private static final String PROPERTIES = "dev/rmqpatch/codec/properties/MessageProperties";
    private static final String REMOTING_SERIALIZABLE = "org/apache/rocketmq/remoting/protocol/RemotingSerializable";
    private static final String HOOKS = "dev/rmqpatch/codec/hook/RemotingCommandHooks";
    private static final MethodRef PROPS_TO_STRING =
        new MethodRef(MESSAGE_DECODER, "messageProperties2String", "(Ljava/util/Map;)Ljava/lang/String;");
    private static final MethodRef STRING_TO_PROPS =
        new MethodRef(MESSAGE_DECODER, "string2messageProperties", "(Ljava/lang/String;)Ljava/util/Map;");
    private static final MethodRef ENCODE_FOR_STORE =
        new MethodRef(PROPERTIES, "encodeForStore", "(Ljava/util/Map;)Ljava/lang/String;");

    private static final String STARTUP = "dev/rmqpatch/codec/switches/StartupHooks";
    private static final MethodRef CALL_SHELL = new MethodRef("org/apache/rocketmq/broker/filtersrv/FilterServerUtil",
        "callShell", "(Ljava/lang/String;Lorg/apache/rocketmq/logging/InternalLogger;)V");

    @TempDir
    Path tmp;

    @Test
    void appliesEveryPatchToTheStockJarsAndLeavesTheRestAlone() throws Exception {
        assumeTrue(TestJars.rocketmqVersion().equals("4.9.0"), "the patches target 4.9.0");
        Path stock = TestJars.stockLib(tmp.resolve("stock"));
        File codec = TestJars.codecJar(tmp);
        Path out = tmp.resolve("patched");
        Map<String, List<String>> applied = JarPatcher.patch(stock.toFile(), codec, Patches.all(), StartupReport.edits(), out.toFile());

        // Each patch's jars come from its own edits (PatchTargets): the patcher must have put every patch where they say.
        Map<String, List<String>> expected = new TreeMap<>();
        PatchTargets.labelsByJar(Patches.all()).forEach((artifact, labels) -> expected.put(artifact + "-4.9.0.jar", labels));
        assertEquals(expected, new TreeMap<>(applied), "patches by jar");
        for (Map.Entry<String, List<String>> e : expected.entrySet()) {
            assertEquals(String.join(", ", e.getValue()), manifestAttribute(out.resolve(e.getKey())), e.getKey() + " manifest");
        }
        assertNull(manifestAttribute(out.resolve("rocketmq-tools-4.9.0.jar")), "the tools jar is not patched");
        assertArrayEquals(Files.readAllBytes(stock.resolve("rocketmq-tools-4.9.0.jar")),
            Files.readAllBytes(out.resolve("rocketmq-tools-4.9.0.jar")), "unpatched jars are copied byte for byte");
        assertTrue(Files.exists(out.resolve(codec.getName())), "codec jar added");

        for (String[] c : new String[][] {{"rocketmq-remoting-4.9.0.jar", REMOTING_COMMAND},
            {"rocketmq-common-4.9.0.jar", MESSAGE_DECODER}, {"rocketmq-broker-4.9.0.jar", SEND_PROCESSOR}}) {
            byte[] before = classBytes(stock.resolve(c[0]), c[1]);
            byte[] after = classBytes(out.resolve(c[0]), c[1]);
            assertEquals(majorVersion(before), majorVersion(after), c[1] + " keeps its class-file version");
            assertTrue(majorVersion(after) <= 52, c[1] + " still runs on Java 8");
        }

        byte[] sendClass = classBytes(out.resolve("rocketmq-broker-4.9.0.jar"), SEND_PROCESSOR);
        MethodNode send = method(sendClass, "asyncSendMessage");
        MethodRef encodeBridge = new MethodRef(SEND_PROCESSOR, "rmqpatch$P3$messageProperties2String", PROPS_TO_STRING.desc);
        MethodRef parseBridge = new MethodRef(SEND_PROCESSOR, "rmqpatch$P3$requestProperties",
            "(Lorg/apache/rocketmq/common/protocol/header/SendMessageRequestHeader;Lorg/apache/rocketmq/store/MessageExtBrokerInner;)Ljava/util/Map;");
        assertEquals(1, calls(send, encodeBridge), "P3: the stored string comes from the switchable encodeForStore");
        assertEquals(0, calls(send, PROPS_TO_STRING), "P3: no direct stock encode left in asyncSendMessage");
        assertEquals(1, calls(send, STRING_TO_PROPS), "P3: one properties parse per send instead of two");
        assertEquals(1, calls(send, parseBridge), "P3: the second parse reads the message's map while P3 is on");
        MethodNode bridge = method(sendClass, encodeBridge.name);
        assertEquals(1, calls(bridge, ENCODE_FOR_STORE), "patched path of the bridge");
        assertEquals(1, calls(bridge, PROPS_TO_STRING), "stock path of the bridge, when P3 is off");
        assertTrue((bridge.access & (Opcodes.ACC_PRIVATE | Opcodes.ACC_STATIC | Opcodes.ACC_SYNTHETIC))
            == (Opcodes.ACC_PRIVATE | Opcodes.ACC_STATIC | Opcodes.ACC_SYNTHETIC), "bridges are private static synthetic");
        assertEquals(List.of("P3"), switchesRead(bridge));

        MethodNode decode = method(classBytes(out.resolve("rocketmq-common-4.9.0.jar"), MESSAGE_DECODER),
            "string2messageProperties");
        assertEquals(1, calls(decode, new MethodRef(PROPERTIES, "decode", "(Ljava/lang/String;)Ljava/util/Map;")));
        assertEquals(List.of("P2"), switchesRead(decode), "P2 reads its switch first and keeps the stock body");
        assertTrue(decode.instructions.size() > 20, "stock body kept behind the switch");
        // P10's and P11's hooks share their methods with P1's and P4's, each behind its own switch, the later patch first.
        assertEquals(List.of("P10", "P1"), switchesRead(method(classBytes(out.resolve("rocketmq-remoting-4.9.0.jar"),
            REMOTING_COMMAND), "decodeCommandCustomHeader")));
        assertEquals(List.of("P11", "P4"), switchesRead(method(classBytes(out.resolve("rocketmq-remoting-4.9.0.jar"),
            REMOTING_COMMAND), "makeCustomHeaderToNet")));

        byte[] consumeQueue = classBytes(out.resolve("rocketmq-store-4.9.0.jar"), CONSUME_QUEUE);
        MethodRef stockAppend = new MethodRef(MAPPED_FILE, "appendMessage", "([B)Z");
        MethodRef appendBridge = new MethodRef(CONSUME_QUEUE, "rmqpatch$P12$appendMessage", "(L" + MAPPED_FILE + ";[B)Z");
        for (String m : new String[] {"putMessagePositionInfo", "fillPreBlank"}) {
            MethodNode site = method(consumeQueue, m);
            assertEquals(0, virtualCalls(site, stockAppend), "P12: no direct channel append left in " + m);
            assertEquals(1, calls(site, appendBridge), "P12: " + m + " appends through the switchable bridge");
        }
        MethodNode cqBridge = method(consumeQueue, appendBridge.name);
        assertEquals(List.of("P12"), switchesRead(cqBridge));
        assertEquals(1, calls(cqBridge, new MethodRef("dev/rmqpatch/codec/store/ConsumeQueueAppend", "appendMessage",
            appendBridge.desc)), "P12: patched path");
        assertEquals(1, virtualCalls(cqBridge, stockAppend), "P12: stock path, when switched off");

        byte[] init = classBytes(out.resolve("rocketmq-remoting-4.9.0.jar"),
            "org/apache/rocketmq/remoting/netty/NettyRemotingServer$7");
        MethodNode initChannel = method(init, "initChannel");
        assertEquals(0, interfaceCalls(initChannel, "io/netty/channel/ChannelPipeline", "addLast"),
            "P7: no pipeline.addLast(group, ...) left in the initializer");
        assertEquals(List.of("P7"), switchesRead(method(init, "rmqpatch$P7$addLast")));
        byte[] clientInit = classBytes(out.resolve("rocketmq-remoting-4.9.0.jar"),
            "org/apache/rocketmq/remoting/netty/NettyRemotingClient$4");
        MethodNode clientInitChannel = method(clientInit, "initChannel", "(Lio/netty/channel/socket/SocketChannel;)V");
        assertEquals(0, interfaceCalls(clientInitChannel, "io/netty/channel/ChannelPipeline", "addLast")
            + interfaceCalls(clientInitChannel, "io/netty/channel/ChannelPipeline", "addFirst"),
            "P26: no pipeline.addLast/addFirst(group, ...) left in the client's initializer");
        assertEquals(List.of("P26"), switchesRead(method(clientInit, "rmqpatch$P26$addLast")));
        assertEquals(List.of("P26"), switchesRead(method(clientInit, "rmqpatch$P26$addFirst")));
        MethodNode uniqId = method(classBytes(out.resolve("rocketmq-common-4.9.0.jar"),
            "org/apache/rocketmq/common/message/MessageClientIDSetter"), "createUniqID");
        assertEquals(List.of("P27"), switchesRead(uniqId), "P27 reads its switch first");
        assertEquals(1, calls(uniqId, new MethodRef("dev/rmqpatch/codec/client/UniqueKeys", "createUniqID",
            "(Ljava/lang/String;Ljava/util/concurrent/atomic/AtomicInteger;JJ)Ljava/lang/String;")), "P27's hook");
        List<String> statics = new java.util.ArrayList<>();
        for (AbstractInsnNode insn : uniqId.instructions) {
            if (insn.getOpcode() == Opcodes.GETSTATIC && !((FieldInsnNode) insn).owner.equals(Switch.OWNER)) {
                statics.add(((FieldInsnNode) insn).name);
            }
        }
        assertEquals(List.of("FIX_STRING", "COUNTER", "startTime", "nextStartTime", "LEN", "FIX_STRING"), statics,
            "the hook gets the class's own state; the stock body (LEN, FIX_STRING) is kept behind it");
        MethodNode asyncProcess = method(sendClass, "asyncProcessRequest", "(Lio/netty/channel/ChannelHandlerContext;"
            + "L" + REMOTING_COMMAND + ";Lorg/apache/rocketmq/remoting/netty/RemotingResponseCallback;)V");
        assertEquals(1, calls(asyncProcess, new MethodRef(SEND_PROCESSOR, "rmqpatch$P9$thenAcceptAsync",
            "(Ljava/util/concurrent/CompletableFuture;Ljava/util/function/Consumer;Ljava/util/concurrent/Executor;)"
                + "Ljava/util/concurrent/CompletableFuture;")), "P9 goes through its bridge");
        byte[] remotingCommand = classBytes(out.resolve("rocketmq-remoting-4.9.0.jar"), REMOTING_COMMAND);
        for (String[] json : new String[][] {
            {"P5", "headerDecode", "decode", "([BLjava/lang/Class;)Ljava/lang/Object;", "decodeJsonHeader"},
            {"P6", "headerEncode", "encode", "(Ljava/lang/Object;)[B", "encodeJsonHeader"}}) {
            MethodRef fastjson = new MethodRef(REMOTING_SERIALIZABLE, json[2], json[3]);
            MethodRef bridgeRef = new MethodRef(REMOTING_COMMAND, "rmqpatch$" + json[0] + "$" + json[2], json[3]);
            MethodNode site = method(remotingCommand, json[1]);
            assertEquals(0, calls(site, fastjson), json[0] + ": no direct fastjson call left in " + json[1]);
            assertEquals(1, calls(site, bridgeRef), json[0] + ": " + json[1] + " calls the switchable bridge");
            MethodNode jsonBridge = method(remotingCommand, bridgeRef.name);
            assertEquals(1, calls(jsonBridge, new MethodRef(HOOKS, json[4], json[3])), json[0] + ": patched path");
            assertEquals(1, calls(jsonBridge, fastjson), json[0] + ": stock path, when switched off");
            assertEquals(List.of(json[0]), switchesRead(jsonBridge));
        }

        MethodNode createFilterServer = method(classBytes(out.resolve("rocketmq-broker-4.9.0.jar"),
            "org/apache/rocketmq/broker/filtersrv/FilterServerManager"), "createFilterServer");
        assertEquals(0, calls(createFilterServer, CALL_SHELL), "S2: no direct shell call left");
        assertEquals(List.of("S1"), switchesRead(method(classBytes(out.resolve("rocketmq-broker-4.9.0.jar"),
            "org/apache/rocketmq/broker/processor/AdminBrokerProcessor"), "updateBrokerConfig")));
        assertEquals(List.of("S3"), switchesRead(method(classBytes(out.resolve("rocketmq-namesrv-4.9.0.jar"),
            "org/apache/rocketmq/namesrv/processor/DefaultRequestProcessor"), "updateConfig")));
        assertEquals(1, calls(method(classBytes(out.resolve("rocketmq-broker-4.9.0.jar"), "org/apache/rocketmq/broker/BrokerStartup"),
            "createBrokerController"), new MethodRef(STARTUP, "brokerStarting", "([Ljava/lang/String;)Ljava/lang/Object;")),
            "start-up checks -Drmqpatch.disable");
        assertEquals(1, calls(method(classBytes(out.resolve("rocketmq-namesrv-4.9.0.jar"),
            "org/apache/rocketmq/namesrv/NamesrvController"), "start"), new MethodRef(STARTUP, "namesrvStarted",
            "(Ljava/lang/Object;)Z")), "start-up report in the name server");
    }

    /** The patch switches a method reads, in code order. */
    private static List<String> switchesRead(MethodNode m) {
        List<String> ids = new java.util.ArrayList<>();
        for (AbstractInsnNode insn : m.instructions) {
            if (insn.getOpcode() == Opcodes.GETSTATIC && ((FieldInsnNode) insn).owner.equals(Switch.OWNER)) {
                ids.add(((FieldInsnNode) insn).name);
            }
        }
        return ids;
    }

    @Test
    void missingTargetMethodFailsNamingPatchClassMethodAndDescriptor() throws Exception {
        MethodRef absent = new MethodRef(REMOTING_COMMAND, "decodeCommandCustomHeaderRmqpatchAbsent", "(Ljava/lang/Class;)V");
        PatchException e = patchFails(new EntryHook(absent,
            new MethodRef("dev/rmqpatch/codec/hook/RemotingCommandHooks", "makeCustomHeaderToNet",
                "(L" + REMOTING_COMMAND + ";)Z")));
        assertTrue(e.getMessage().contains("T9 test-patch"), e.getMessage());
        assertTrue(e.getMessage().contains("org.apache.rocketmq.remoting.protocol.RemotingCommand.decodeCommandCustomHeaderRmqpatchAbsent(Ljava/lang/Class;)V"),
            e.getMessage());
    }

    @Test
    void missingTargetClassFails() throws Exception {
        MethodRef absent = new MethodRef("org/apache/rocketmq/remoting/protocol/RmqpatchAbsentHeader", "decode", "()V");
        PatchException e = patchFails(new DelegateBody(absent, ENCODE_FOR_STORE));
        assertTrue(e.getMessage().contains("T9 test-patch: class org.apache.rocketmq.remoting.protocol.RmqpatchAbsentHeader"),
            e.getMessage());
    }

    @Test
    void zeroCallSitesFailInsteadOfSkippingSilently() throws Exception {
        // decodeCommandCustomHeader never encodes properties: a matcher that hits nothing must stop the build.
        MethodRef inMethod = new MethodRef(REMOTING_COMMAND, "decodeCommandCustomHeader",
            "(Ljava/lang/Class;)Lorg/apache/rocketmq/remoting/CommandCustomHeader;");
        PatchException e = patchFails(new ReplaceCall(inMethod, PROPS_TO_STRING, ENCODE_FOR_STORE, 1));
        assertTrue(e.getMessage().contains("expected 1 call(s)") && e.getMessage().contains("found 0"), e.getMessage());
        assertTrue(e.getMessage().contains("T9 test-patch"), e.getMessage());
    }

    @Test
    void unexpectedCallSiteCountFails() throws Exception {
        assumeTrue(TestJars.rocketmqVersion().equals("4.9.0"), "call-site counts are those of 4.9.0");
        MethodRef asyncSend = new MethodRef(SEND_PROCESSOR, "asyncSendMessage",
            "(Lio/netty/channel/ChannelHandlerContext;L" + REMOTING_COMMAND + ";"
                + "Lorg/apache/rocketmq/broker/mqtrace/SendMessageContext;"
                + "Lorg/apache/rocketmq/common/protocol/header/SendMessageRequestHeader;)"
                + "Ljava/util/concurrent/CompletableFuture;");
        PatchException e = patchFails(new ReplaceCall(asyncSend, PROPS_TO_STRING, ENCODE_FOR_STORE, 2));
        assertTrue(e.getMessage().contains("expected 2 call(s)") && e.getMessage().contains("found 1"), e.getMessage());
    }

    @Test
    void codecMethodThatDoesNotExistFails() throws Exception {
        MethodRef missing = new MethodRef(PROPERTIES, "encodeFast", "(Ljava/util/Map;)Ljava/lang/String;");
        PatchException e = patchFails(new DelegateBody(PROPS_TO_STRING, missing));
        assertTrue(e.getMessage().contains("encodeFast"), e.getMessage());
    }

    @Test
    void delegateWithAnotherSignatureFails() throws Exception {
        PatchException e = patchFails(new DelegateBody(PROPS_TO_STRING,
            new MethodRef(PROPERTIES, "decode", "(Ljava/lang/String;)Ljava/util/Map;")));
        assertTrue(e.getMessage().contains("must have descriptor"), e.getMessage());
    }

    private static final MethodRef TRANSFER_RUN = new MethodRef("org/apache/rocketmq/store/ha/HAService$GroupTransferService",
        "run", "()V");
    private static final MethodRef TRANSFER_WAIT = new MethodRef(TRANSFER_RUN.owner, "waitForRunning", "(J)V");
    private static final MethodRef TRANSFER_WAIT_MILLIS = new MethodRef("dev/rmqpatch/codec/ha/ReplicaAcks",
        "transferWaitMillis", "(J)J");

    @Test
    void unexpectedArgumentFilterCountFails() throws Exception {
        PatchException e = patchFails(new FilterArgument(TRANSFER_RUN, TRANSFER_WAIT, Opcodes.INVOKEVIRTUAL,
            TRANSFER_WAIT_MILLIS, 2));
        assertTrue(e.getMessage().contains("expected 2 call(s)") && e.getMessage().contains("found 1"), e.getMessage());
    }

    @Test
    void argumentFilterOfAnotherTypeIsRefused() {
        assertThrows(IllegalArgumentException.class, () -> new FilterArgument(TRANSFER_RUN, TRANSFER_WAIT,
            Opcodes.INVOKEVIRTUAL, new MethodRef(TRANSFER_WAIT_MILLIS.owner, "transferWaitMillis", "(I)I"), 1));
        assertThrows(IllegalArgumentException.class, () -> new FilterArgument(TRANSFER_RUN,
            new MethodRef(TRANSFER_RUN.owner, "getServiceName", "()Ljava/lang/String;"), Opcodes.INVOKEVIRTUAL,
            TRANSFER_WAIT_MILLIS, 1));
    }

    private static final MethodRef STATS_ITEM_INIT = new MethodRef("org/apache/rocketmq/common/stats/StatsItem", "<init>",
        "(Ljava/lang/String;Ljava/lang/String;Ljava/util/concurrent/ScheduledExecutorService;"
            + "Lorg/apache/rocketmq/logging/InternalLogger;)V");
    private static final MethodRef NEW_COUNTER = new MethodRef("dev/rmqpatch/codec/stats/StatsItemCounters", "newCounter",
        "(J)Ljava/util/concurrent/atomic/AtomicLong;");

    @Test
    void unexpectedAllocationCountFails() throws Exception {
        PatchException e = patchFails(new ReplaceAllocation(STATS_ITEM_INIT, "java/util/concurrent/atomic/AtomicLong",
            "(J)V", NEW_COUNTER, 3));
        assertTrue(e.getMessage().contains("expected 3 allocation(s)") && e.getMessage().contains("found 2"), e.getMessage());
    }

    @Test
    void allocationFactoryWithAnotherSignatureFails() throws Exception {
        PatchException e = patchFails(new ReplaceAllocation(STATS_ITEM_INIT, "java/util/concurrent/atomic/AtomicLong",
            "()V", NEW_COUNTER, 2));
        assertTrue(e.getMessage().contains("must have descriptor"), e.getMessage());
    }

    @Test
    void fieldDelegateWithAnotherArityFails() throws Exception {
        MethodRef swap = new MethodRef("org/apache/rocketmq/store/CommitLog$GroupCommitService", "swapRequests", "()V");
        PatchException e = patchFails(new DelegateFields(swap, List.of(),
            new MethodRef("dev/rmqpatch/codec/store/GroupCommitQueue", "swapRequests", "(Ljava/util/List;)V")));
        assertTrue(e.getMessage().contains("must take 0 field value(s)"), e.getMessage());
    }

    private static final MethodRef UNIQ_ID = new MethodRef("org/apache/rocketmq/common/message/MessageClientIDSetter",
        "createUniqID", "()Ljava/lang/String;");
    private static final MethodRef UNIQ_ID_HOOK = new MethodRef("dev/rmqpatch/codec/client/UniqueKeys", "createUniqID",
        "(Ljava/lang/String;Ljava/util/concurrent/atomic/AtomicInteger;JJ)Ljava/lang/String;");
    private static final MethodRef FIX = new MethodRef(UNIQ_ID.owner, "FIX_STRING", "Ljava/lang/String;");
    private static final MethodRef COUNTER = new MethodRef(UNIQ_ID.owner, "COUNTER", "Ljava/util/concurrent/atomic/AtomicInteger;");
    private static final MethodRef START = new MethodRef(UNIQ_ID.owner, "startTime", "J");

    @Test
    void staticFieldHookFailsOnAMissingField() throws Exception {
        PatchException e = patchFails(EntryHook.withStaticFields(UNIQ_ID,
            List.of(FIX, COUNTER, START, new MethodRef(UNIQ_ID.owner, "laterStartTime", "J")), UNIQ_ID_HOOK));
        assertTrue(e.getMessage().contains("has no static field laterStartTime J"), e.getMessage());
    }

    @Test
    void staticFieldHookFailsOnAFieldOfAnotherType() throws Exception {
        PatchException e = patchFails(EntryHook.withStaticFields(UNIQ_ID, List.of(COUNTER, FIX, START, START), UNIQ_ID_HOOK));
        assertTrue(e.getMessage().contains("where static field COUNTER is"), e.getMessage());
    }

    private PatchException patchFails(MethodEdit edit) throws IOException {
        Path stock = TestJars.stockLib(tmp.resolve("stock"));
        File codec = TestJars.codecJar(tmp);
        Path out = tmp.resolve("out");
        PatchException e = assertThrows(PatchException.class,
            () -> JarPatcher.patch(stock.toFile(), codec, List.of(new TestPatch(edit)), List.of(), out.toFile()));
        assertTrue(!Files.exists(out), "nothing is written when a patch does not apply");
        return e;
    }

    private static String manifestAttribute(Path jar) throws IOException {
        try (JarFile jf = new JarFile(jar.toFile())) {
            return jf.getManifest() == null ? null : jf.getManifest().getMainAttributes().getValue(JarPatcher.MANIFEST_ATTRIBUTE);
        }
    }

    private static byte[] classBytes(Path jar, String internalName) throws IOException {
        try (JarFile jf = new JarFile(jar.toFile()); InputStream in = jf.getInputStream(jf.getEntry(internalName + ".class"))) {
            return in.readAllBytes();
        }
    }

    private static int majorVersion(byte[] classFile) {
        return ((classFile[6] & 0xff) << 8) | (classFile[7] & 0xff);
    }

    private static MethodNode method(byte[] classFile, String name, String desc) {
        ClassNode node = new ClassNode();
        new ClassReader(classFile).accept(node, 0);
        return node.methods.stream().filter(m -> m.name.equals(name) && m.desc.equals(desc)).findFirst().orElseThrow();
    }

    private static int interfaceCalls(MethodNode m, String owner, String name) {
        int n = 0;
        for (AbstractInsnNode insn : m.instructions) {
            if (insn.getOpcode() == Opcodes.INVOKEINTERFACE) {
                MethodInsnNode mi = (MethodInsnNode) insn;
                n += mi.owner.equals(owner) && mi.name.equals(name) ? 1 : 0;
            }
        }
        return n;
    }

    private static int virtualCalls(MethodNode m, MethodRef ref) {
        int n = 0;
        for (AbstractInsnNode insn : m.instructions) {
            if (insn.getOpcode() == Opcodes.INVOKEVIRTUAL) {
                MethodInsnNode mi = (MethodInsnNode) insn;
                n += ref.matches(mi.owner, mi.name, mi.desc) ? 1 : 0;
            }
        }
        return n;
    }

    private static MethodNode method(byte[] classFile, String name) {
        ClassNode node = new ClassNode();
        new ClassReader(classFile).accept(node, 0);
        return node.methods.stream().filter(m -> m.name.equals(name)).findFirst().orElseThrow();
    }

    private static int calls(MethodNode m, MethodRef ref) {
        int n = 0;
        for (AbstractInsnNode insn : m.instructions) {
            if (insn.getOpcode() == Opcodes.INVOKESTATIC) {
                MethodInsnNode mi = (MethodInsnNode) insn;
                n += ref.matches(mi.owner, mi.name, mi.desc) ? 1 : 0;
            }
        }
        return n;
    }

    private static final class TestPatch implements Patch {
        private final MethodEdit edit;

        TestPatch(MethodEdit edit) {
            this.edit = edit;
        }

        @Override
        public String id() {
            return "T9";
        }

        @Override
        public String name() {
            return "test-patch";
        }

        @Override
        public String effect() {
            return "none";
        }

        @Override
        public String buys() {
            return "nothing";
        }

        @Override
        public String why() {
            return "test";
        }

        @Override
        public String verification() {
            return "this test";
        }

        @Override
        public String tests() {
            return "JarPatcherTest";
        }

        @Override
        public String benchmark() {
            return "none";
        }

        @Override
        public List<MethodEdit> edits() {
            return List.of(edit);
        }
    }
}
