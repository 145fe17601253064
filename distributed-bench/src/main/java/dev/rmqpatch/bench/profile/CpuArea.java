package dev.rmqpatch.bench.profile;

import java.util.List;

/**
 * Where a broker's CPU sample belongs. A sample goes to the area of the frame nearest its leaf that belongs to any
 * area, so work is charged to the component that asked for it: a HashMap lookup inside fastjson is JSON, a page fault
 * inside the CommitLog append is the store, a kernel TCP send under netty is I/O. Frames that belong to no area (JDK
 * collections, thread pools, futex and scheduler frames) pass the question on towards the root; a sample none of whose
 * frames belongs anywhere is "other". The broker's own request logic ({@code org.apache.rocketmq.broker}) is "other"
 * and ends the search, because every request runs below the remoting layer's dispatch frames and would otherwise count
 * as remoting. Every sample lands in exactly one area, so the shares add up to 100%.
 */
public enum CpuArea {
    REMOTING_JSON("remoting and JSON"),
    REFLECTION("reflection"),
    PROPERTIES("properties codec"),
    STORE("store and CommitLog"),
    NETTY_IO("netty and kernel I/O"),
    LOGGING("logging"),
    GC_JIT("GC and JIT"),
    OTHER("other");

    private final String label;

    CpuArea(String label) {
        this.label = label;
    }

    public String label() {
        return label;
    }

    /** Checked before the broader areas: these are methods inside packages that another area claims. */
    private static final List<String> PROPERTIES_JAVA = List.of(
        "org.apache.rocketmq.common.message.MessageDecoder.string2messageProperties",
        "org.apache.rocketmq.common.message.MessageDecoder.messageProperties2String",
        "dev.rmqpatch.codec.properties.");
    /** JDK reflection, and RocketMQ's reflective header codec (what P1 and P4 replace). */
    private static final List<String> REFLECTION_JAVA = List.of(
        "java.lang.reflect.", "jdk.internal.reflect.", "sun.reflect.",
        "java.lang.Class.getDeclared", "java.lang.Class.privateGetDeclared", "java.lang.Class.reflectionData",
        "java.lang.Class.searchFields", "java.lang.Class.searchMethods", "java.lang.Class.copyFields", "java.lang.Class.getField",
        "java.lang.Class.getMethod", "java.lang.Class.newInstance", "java.lang.Class.getConstructor", "java.lang.Class.forName",
        "org.apache.rocketmq.remoting.protocol.RemotingCommand.decodeCommandCustomHeader",
        "org.apache.rocketmq.remoting.protocol.RemotingCommand.makeCustomHeaderToNet",
        "org.apache.rocketmq.remoting.protocol.RemotingCommand.getClazzFields",
        "org.apache.rocketmq.remoting.protocol.RemotingCommand.getCanonicalName",
        "org.apache.rocketmq.remoting.protocol.RemotingCommand.isFieldNullable");
    private static final List<String> REFLECTION_NATIVE = List.of("Reflection::", "JVM_GetClassDeclared", "JVM_NewInstance", "JVM_InvokeMethod");
    private static final List<String> LOGGING_JAVA = List.of(
        "ch.qos.logback.", "org.slf4j.", "org.apache.rocketmq.logging.", "org.apache.log4j.", "org.apache.logging.log4j.", "java.util.logging.");
    /** The remoting layer and its JSON headers; the patched header codec is this area's replacement for reflection. */
    private static final List<String> REMOTING_JAVA = List.of(
        "org.apache.rocketmq.remoting.", "com.alibaba.fastjson.", "dev.rmqpatch.codec.header.", "dev.rmqpatch.codec.hook.");
    private static final List<String> STORE_JAVA = List.of("org.apache.rocketmq.store.");
    /** The broker's request processors, managers and services: "other", and the frames below them decide no more. */
    private static final List<String> BROKER_JAVA = List.of("org.apache.rocketmq.broker.");
    /** Socket I/O only: file channels belong to whoever reads or writes the file. */
    private static final List<String> IO_JAVA = List.of(
        "io.netty.", "sun.nio.ch.SocketChannelImpl", "sun.nio.ch.SocketDispatcher", "sun.nio.ch.EPoll", "sun.nio.ch.SelectorImpl",
        "sun.nio.ch.ServerSocketChannelImpl", "sun.nio.ch.NioSocketImpl", "sun.nio.ch.Net.");
    private static final List<String> IO_NATIVE = List.of("epoll_wait", "epoll_ctl", "Java_sun_nio_ch_EPoll", "Java_sun_nio_ch_SocketDispatcher");
    /** Kernel functions of the network stack and epoll (after leading underscores), e.g. tcp_sendmsg, __dev_queue_xmit. */
    private static final List<String> IO_KERNEL = List.of(
        "tcp_", "tcp4", "tcp6", "ip_", "ip6_", "ipv4_", "ipv6_", "inet_", "sock_", "sk_", "skb_", "kfree_skb", "consume_skb",
        "alloc_skb", "net_", "netif_", "napi_", "dev_queue_xmit", "dev_hard_start_xmit", "loopback_", "ep_", "do_epoll", "eventpoll",
        "x64_sys_epoll", "x64_sys_sendto", "x64_sys_recvfrom", "x64_sys_sendmsg", "x64_sys_recvmsg", "sys_epoll", "sys_sendto",
        "sys_recvfrom", "sys_sendmsg", "sys_recvmsg", "release_sock", "lock_sock", "security_socket");
    /** HotSpot's own C++ (frames named Class::method): collectors, compilers, safepoints, allocation slow paths. */
    private static final List<String> GC_JIT_NATIVE = List.of(
        "G1", "GC", "Gang", "WorkerThread", "ConcurrentMark", "Safepoint", "VMThread", "VM_Operation", "CompileBroker", "Compiler",
        "Compile::", "Compilation", "PhaseIdealLoop", "PhaseChaitin", "PhaseCFG", "PhaseIterGVN", "PhaseGVN", "PhaseOutput", "Matcher::",
        "LinearScan", "ciEnv", "ciMethod", "ciObject", "CodeCache", "nmethod", "Deoptimization", "MemAllocator", "CollectedHeap",
        "ThreadLocalAllocBuffer", "Parse::", "GraphKit", "BarrierSet", "Scavenge");

    /** The area of a sample, from its frames, root first (as in a collapsed-stack line). */
    public static CpuArea of(List<String> framesRootFirst) {
        for (int i = framesRootFirst.size() - 1; i >= 0; i--) {
            CpuArea a = ofFrame(framesRootFirst.get(i));
            if (a != null) {
                return a;
            }
        }
        return OTHER;
    }

    /** The area a single frame belongs to, or null when it belongs to none. */
    public static CpuArea ofFrame(String frame) {
        String name = methodName(frame);
        if (isKernel(frame)) {
            String bare = name.replaceFirst("^_+", "");
            return startsWithAny(bare, IO_KERNEL) ? NETTY_IO : null;
        }
        if (name.contains("::")) {
            if (containsAny(name, REFLECTION_NATIVE)) {
                return REFLECTION;
            }
            return containsAny(name, GC_JIT_NATIVE) ? GC_JIT : null;
        }
        if (startsWithAny(name, PROPERTIES_JAVA)) {
            return PROPERTIES;
        }
        if (startsWithAny(name, REFLECTION_JAVA) || containsAny(name, REFLECTION_NATIVE)) {
            return REFLECTION;
        }
        if (startsWithAny(name, LOGGING_JAVA)) {
            return LOGGING;
        }
        if (startsWithAny(name, REMOTING_JAVA)) {
            return REMOTING_JSON;
        }
        if (startsWithAny(name, STORE_JAVA)) {
            return STORE;
        }
        if (startsWithAny(name, BROKER_JAVA)) {
            return OTHER;
        }
        if (startsWithAny(name, IO_JAVA) || containsAny(name, IO_NATIVE)) {
            return NETTY_IO;
        }
        return null;
    }

    /** A frame's name without the profiler's type annotation, with dotted class names: java.util.HashMap.put, tcp_sendmsg. */
    public static String methodName(String frame) {
        String f = frame;
        if (f.length() > 4 && f.charAt(f.length() - 1) == ']' && f.charAt(f.length() - 4) == '_' && f.charAt(f.length() - 3) == '[') {
            f = f.substring(0, f.length() - 4);
        }
        return f.replace('/', '.');
    }

    public static boolean isKernel(String frame) {
        return frame.endsWith("_[k]");
    }

    private static boolean startsWithAny(String s, List<String> prefixes) {
        for (String p : prefixes) {
            if (s.startsWith(p)) {
                return true;
            }
        }
        return false;
    }

    private static boolean containsAny(String s, List<String> parts) {
        for (String p : parts) {
            if (s.contains(p)) {
                return true;
            }
        }
        return false;
    }
}
