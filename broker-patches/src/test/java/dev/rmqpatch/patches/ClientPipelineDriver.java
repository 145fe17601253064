package dev.rmqpatch.patches;

import java.io.DataInputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.AbstractExecutorService;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import org.apache.rocketmq.common.protocol.header.SendMessageRequestHeaderV2;
import org.apache.rocketmq.common.protocol.header.SendMessageResponseHeader;
import org.apache.rocketmq.remoting.ChannelEventListener;
import org.apache.rocketmq.remoting.exception.RemotingTimeoutException;
import org.apache.rocketmq.remoting.netty.NettyClientConfig;
import org.apache.rocketmq.remoting.netty.NettyRemotingClient;
import org.apache.rocketmq.remoting.netty.NettyRequestProcessor;
import org.apache.rocketmq.remoting.protocol.RemotingCommand;

/**
 * Runs inside one isolated class loader (stock lib/, or patched lib/ with a given set of switches): a
 * {@code NettyRemotingClient} of that lib/ against a scripted loopback server written with plain sockets, which
 * records every frame the client writes, byte for byte, and answers as the script says. The client makes a
 * synchronous call (with a send request header, whose response header it decodes), an asynchronous one, a one-way
 * one, a synchronous one nobody answers (its timeout), one after which the server sends the client a request of its
 * own (answered by a processor on its executor), one after which the server closes the connection (the next call
 * reconnects); a second client with a one-second idle time sends a call nobody answers and goes idle (the idle
 * handler closes the channel and the pending call fails fast). Returns one line per observation; only java.* crosses
 * the loader boundary. The line starting {@value #HANDLER_THREAD} names the thread the client's handlers ran on
 * (the thread that handed the server's request to the processor's executor): the one line P26 changes.
 */
public final class ClientPipelineDriver {

    static final String HANDLER_THREAD = "handler thread: ";

    static final int SYNC = 1001;
    static final int ASYNC = 1002;
    static final int ONEWAY = 1003;
    static final int SILENT = 1004;
    static final int ASK_BACK = 1005;
    static final int CLOSE_AFTER = 1006;
    static final int SERVER_REQUEST = 2001;
    static final int SERVER_REQUEST_OPAQUE = 900;

    private static final long WAIT_SECONDS = 20;

    private ClientPipelineDriver() {
    }

    public static List<String> run() throws Exception {
        List<String> out = new ArrayList<>();
        try (Server server = new Server()) {
            String addr = "127.0.0.1:" + server.socket.getLocalPort();
            Events events = new Events();
            NettyRemotingClient client = new NettyRemotingClient(new NettyClientConfig(), events);
            RecordingExecutor processorExecutor = new RecordingExecutor();
            AtomicReference<String> processedOn = new AtomicReference<>();
            client.registerProcessor(SERVER_REQUEST, new NettyRequestProcessor() {
                @Override
                public RemotingCommand processRequest(ChannelHandlerContext ctx, RemotingCommand request) {
                    processedOn.set(kind(Thread.currentThread()));
                    RemotingCommand answer = RemotingCommand.createResponseCommand(0, "answered " + request.getExtFields());
                    answer.setBody(("answer to " + new String(request.getBody(), StandardCharsets.UTF_8))
                        .getBytes(StandardCharsets.UTF_8));
                    return answer;
                }

                @Override
                public boolean rejectRequest() {
                    return false;
                }
            }, processorExecutor);
            client.start();
            List<Thread> stopping = new ArrayList<>();
            try {
                RemotingCommand r = client.invokeSync(addr, sendRequest(), 10_000);
                out.add("sync: " + describe(r));
                SendMessageResponseHeader h =
                    (SendMessageResponseHeader) r.decodeCommandCustomHeader(SendMessageResponseHeader.class);
                out.add("send response header: " + h.getMsgId() + " " + h.getQueueId() + " " + h.getQueueOffset() + " "
                    + h.getTransactionId());

                CountDownLatch called = new CountDownLatch(1);
                AtomicReference<String> callback = new AtomicReference<>();
                client.invokeAsync(addr, request(ASYNC, "async"), 10_000, f -> {
                    callback.set(kind(Thread.currentThread()) + " sendOK=" + f.isSendRequestOK() + " timeout="
                        + f.isTimeout() + " " + describe(f.getResponseCommand()));
                    called.countDown();
                });
                await(called, "the async callback");
                out.add("async callback: " + callback.get());

                client.invokeOneway(addr, request(ONEWAY, "one way"), 10_000);
                server.awaitFrames(3);

                try {
                    client.invokeSync(addr, request(SILENT, "nobody answers"), 300);
                    out.add("timeout: none");
                } catch (RemotingTimeoutException e) {
                    out.add("timeout: " + e.getClass().getSimpleName());
                }

                out.add("ask-back: " + describe(client.invokeSync(addr, request(ASK_BACK, "ask me back"), 10_000)));
                await(server.answered, "the client's answer to the server's request");
                out.add(HANDLER_THREAD + processorExecutor.submittedFrom);
                out.add("processor thread: " + processedOn.get());

                out.add("close-after: " + describe(client.invokeSync(addr, request(CLOSE_AFTER, "close after"), 10_000)));
                long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(WAIT_SECONDS);
                while (connected(client, addr)) {
                    if (System.nanoTime() > deadline) {
                        throw new IllegalStateException("the client did not see the server close the connection");
                    }
                    Thread.sleep(10);
                }
                out.add("reconnected: " + describe(client.invokeSync(addr, request(SYNC, "again"), 10_000)));
                out.add("events: " + events.await(2));
                idleScenario(addr, out, stopping);
            } finally {
                client.shutdown();
                processorExecutor.shutdown();
                for (Thread t : stopping) {
                    t.join(TimeUnit.SECONDS.toMillis(WAIT_SECONDS));
                }
            }
            out.add("connections: " + server.accepted());
            synchronized (server.frames) {
                out.addAll(server.frames);
            }
        }
        return out;
    }

    /**
     * A second client with a one-second idle time: a call nobody answers is pending when the channel goes idle. Its
     * shutdown runs beside the first client's (each waits up to 3 s for its event thread), so the test waits once.
     */
    private static void idleScenario(String addr, List<String> out, List<Thread> stopping) throws Exception {
        NettyClientConfig idleConfig = new NettyClientConfig();
        idleConfig.setClientChannelMaxIdleTimeSeconds(1);
        Events idleEvents = new Events();
        NettyRemotingClient idle = new NettyRemotingClient(idleConfig, idleEvents);
        idle.start();
        try {
            out.add("before idle: " + describe(idle.invokeSync(addr, request(SYNC, "then idle"), 10_000)));
            CountDownLatch failed = new CountDownLatch(1);
            AtomicReference<String> pending = new AtomicReference<>();
            idle.invokeAsync(addr, request(SILENT, "pending when idle"), 60_000, f -> {
                pending.set(kind(Thread.currentThread()) + " sendOK=" + f.isSendRequestOK() + " timeout="
                    + f.isTimeout() + " response=" + f.getResponseCommand());
                failed.countDown();
            });
            out.add("idle events: " + idleEvents.await(3));
            await(failed, "the pending call's callback when the idle channel closed");
            out.add("pending call: " + pending.get());
        } finally {
            Thread t = new Thread(idle::shutdown, "idle-client-shutdown");
            t.start();
            stopping.add(t);
        }
    }

    /** A send request header as a producer fills it, so the request frame carries its encoded fields (P4 on). */
    private static RemotingCommand sendRequest() {
        SendMessageRequestHeaderV2 h = new SendMessageRequestHeaderV2();
        h.setA("producer-group");
        h.setB("TopicTest");
        h.setC("TBW102");
        h.setD(4);
        h.setE(3);
        h.setF(0);
        h.setG(1700000000123L);
        h.setH(0);
        h.setI("KEYS\u0001k1 k2\u0002UNIQ_KEY\u00017F0000010001\u0002WAIT\u0001true\u0002TAGS\u0001T\u00fcg\u0002");
        h.setJ(0);
        h.setK(false);
        h.setM(false);
        RemotingCommand c = RemotingCommand.createRequestCommand(SYNC, h);
        c.setBody("a message body \u2713".getBytes(StandardCharsets.UTF_8));
        return c;
    }

    private static RemotingCommand request(int code, String text) {
        RemotingCommand c = RemotingCommand.createRequestCommand(code, null);
        c.addExtField("text", text);
        c.addExtField("k", "v\u00e9");
        c.setRemark("remark of " + code);
        c.setBody(text.getBytes(StandardCharsets.UTF_8));
        return c;
    }

    private static String describe(RemotingCommand r) {
        if (r == null) {
            return "null";
        }
        Map<String, String> ext = r.getExtFields() == null ? null : new TreeMap<>(r.getExtFields());
        return "code=" + r.getCode() + " opaque=" + r.getOpaque() + " flag=" + r.getFlag() + " remark=" + r.getRemark()
            + " language=" + r.getLanguage() + " version=" + r.getVersion() + " ext=" + ext + " body="
            + (r.getBody() == null ? null : new String(r.getBody(), StandardCharsets.UTF_8));
    }

    /** Whether the client's channel to addr is open (its ChannelWrapper.isOK), read from its private table. */
    private static boolean connected(NettyRemotingClient client, String addr) throws ReflectiveOperationException {
        java.lang.reflect.Field tables = NettyRemotingClient.class.getDeclaredField("channelTables");
        tables.setAccessible(true);
        Object wrapper = ((Map<?, ?>) tables.get(client)).get(addr);
        if (wrapper == null) {
            return false;
        }
        java.lang.reflect.Method isOk = wrapper.getClass().getDeclaredMethod("isOK");
        isOk.setAccessible(true);
        return (Boolean) isOk.invoke(wrapper);
    }

    /** A thread's name without its number: "NettyClientPublicExecutor_". */
    static String kind(Thread t) {
        return t.getName().replaceAll("\\d+$", "");
    }

    private static void await(CountDownLatch latch, String what) throws InterruptedException {
        if (!latch.await(WAIT_SECONDS, TimeUnit.SECONDS)) {
            throw new IllegalStateException("no " + what + " within " + WAIT_SECONDS + " s");
        }
    }

    /** The client's channel events, in the order its event thread delivers them. */
    private static final class Events implements ChannelEventListener {
        private final List<String> seen = Collections.synchronizedList(new ArrayList<>());

        @Override
        public void onChannelConnect(String remoteAddr, Channel channel) {
            seen.add("CONNECT");
        }

        @Override
        public void onChannelClose(String remoteAddr, Channel channel) {
            seen.add("CLOSE");
        }

        @Override
        public void onChannelException(String remoteAddr, Channel channel) {
            seen.add("EXCEPTION");
        }

        @Override
        public void onChannelIdle(String remoteAddr, Channel channel) {
            seen.add("IDLE");
        }

        List<String> await(int count) throws InterruptedException {
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(WAIT_SECONDS);
            while (seen.size() < count && System.nanoTime() < deadline) {
                Thread.sleep(10);
            }
            Thread.sleep(50); // and nothing more
            synchronized (seen) {
                return new ArrayList<>(seen);
            }
        }
    }

    /** Runs each task on a thread of its own pool and notes which thread handed it over. */
    private static final class RecordingExecutor extends AbstractExecutorService {
        private final ExecutorService pool = Executors.newSingleThreadExecutor(r -> {
            Thread t = new Thread(r, "ClientProcessor_1");
            t.setDaemon(true);
            return t;
        });
        volatile String submittedFrom;

        @Override
        public void execute(Runnable command) {
            submittedFrom = kind(Thread.currentThread());
            pool.execute(command);
        }

        @Override
        public void shutdown() {
            pool.shutdown();
        }

        @Override
        public List<Runnable> shutdownNow() {
            return pool.shutdownNow();
        }

        @Override
        public boolean isShutdown() {
            return pool.isShutdown();
        }

        @Override
        public boolean isTerminated() {
            return pool.isTerminated();
        }

        @Override
        public boolean awaitTermination(long timeout, TimeUnit unit) throws InterruptedException {
            return pool.awaitTermination(timeout, unit);
        }
    }

    /**
     * The scripted server: one thread per connection, reading whole frames; records each as "connN: header | body |
     * hex of the whole frame" and answers requests by their code.
     */
    private static final class Server implements AutoCloseable {
        private static final Pattern CODE = Pattern.compile("\"code\":(-?\\d+)");
        private static final Pattern OPAQUE = Pattern.compile("\"opaque\":(-?\\d+)");
        private static final Pattern FLAG = Pattern.compile("\"flag\":(\\d+)");

        final ServerSocket socket = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        final List<String> frames = new ArrayList<>();
        final CountDownLatch answered = new CountDownLatch(1);
        private final List<Socket> connections = Collections.synchronizedList(new ArrayList<>());
        private final Thread acceptor;

        Server() throws IOException {
            acceptor = new Thread(this::accept, "scripted-server-accept");
            acceptor.setDaemon(true);
            acceptor.start();
        }

        int accepted() {
            return connections.size();
        }

        private void accept() {
            try {
                while (true) {
                    Socket s = socket.accept();
                    int n = connections.size() + 1;
                    connections.add(s);
                    Thread t = new Thread(() -> serve(s, n), "scripted-server-conn" + n);
                    t.setDaemon(true);
                    t.start();
                }
            } catch (IOException closed) {
                // the test is over
            }
        }

        private void serve(Socket s, int conn) {
            try (Socket socket = s) {
                DataInputStream in = new DataInputStream(socket.getInputStream());
                OutputStream out = socket.getOutputStream();
                while (true) {
                    int length = in.readInt();
                    byte[] content = new byte[length];
                    in.readFully(content);
                    int headerLength = ByteBuffer.wrap(content).getInt() & 0xFFFFFF;
                    String header = new String(content, 4, headerLength, StandardCharsets.UTF_8);
                    String body = new String(content, 4 + headerLength, length - 4 - headerLength, StandardCharsets.UTF_8);
                    StringBuilder hex = new StringBuilder();
                    for (byte b : ByteBuffer.allocate(4 + length).putInt(length).put(content).array()) {
                        hex.append(String.format("%02x", b));
                    }
                    synchronized (frames) {
                        frames.add("conn" + conn + ": " + header + " | " + body + " | " + hex);
                        frames.notifyAll();
                    }
                    int code = number(CODE, header);
                    int opaque = number(OPAQUE, header);
                    boolean response = (number(FLAG, header) & 1) != 0;
                    if (response) {
                        if (opaque == SERVER_REQUEST_OPAQUE) {
                            answered.countDown();
                        }
                        continue;
                    }
                    switch (code) {
                        case SYNC:
                            out.write(frame("{\"code\":0,\"extFields\":{\"msgId\":\"7F00000100002A9F0000000000000F00\","
                                + "\"queueId\":\"3\",\"queueOffset\":\"42\"},\"flag\":1,\"language\":\"JAVA\",\"opaque\":" + opaque
                                + ",\"remark\":\"stored\",\"serializeTypeCurrentRPC\":\"JSON\",\"version\":373}", ""));
                            break;
                        case ASYNC:
                        case ASK_BACK:
                        case CLOSE_AFTER:
                            out.write(frame("{\"code\":0,\"extFields\":{\"echo\":\"" + code + "\"},\"flag\":1,"
                                + "\"language\":\"JAVA\",\"opaque\":" + opaque + ",\"remark\":\"ok\","
                                + "\"serializeTypeCurrentRPC\":\"JSON\",\"version\":373}", "reply to " + code));
                            if (code == ASK_BACK) {
                                out.write(frame("{\"code\":" + SERVER_REQUEST + ",\"extFields\":{\"q\":\"1\"},\"flag\":0,"
                                    + "\"language\":\"JAVA\",\"opaque\":" + SERVER_REQUEST_OPAQUE
                                    + ",\"serializeTypeCurrentRPC\":\"JSON\",\"version\":373}", "a question"));
                            }
                            if (code == CLOSE_AFTER) {
                                out.flush();
                                return;
                            }
                            break;
                        default:
                            break; // ONEWAY and SILENT: no answer
                    }
                    out.flush();
                }
            } catch (IOException e) {
                // the connection is closed (by the client, or here after CLOSE_AFTER)
            }
        }

        void awaitFrames(int count) throws InterruptedException {
            long deadline = System.currentTimeMillis() + TimeUnit.SECONDS.toMillis(WAIT_SECONDS);
            synchronized (frames) {
                while (frames.size() < count) {
                    long left = deadline - System.currentTimeMillis();
                    if (left <= 0) {
                        throw new IllegalStateException("the server saw " + frames.size() + " frames, not " + count);
                    }
                    frames.wait(left);
                }
            }
        }

        private static int number(Pattern p, String header) {
            Matcher m = p.matcher(header);
            return m.find() ? Integer.parseInt(m.group(1)) : -1;
        }

        private static byte[] frame(String header, String body) {
            byte[] h = header.getBytes(StandardCharsets.UTF_8);
            byte[] b = body.getBytes(StandardCharsets.UTF_8);
            return ByteBuffer.allocate(8 + h.length + b.length).putInt(4 + h.length + b.length).putInt(h.length).put(h)
                .put(b).array();
        }

        @Override
        public void close() throws IOException {
            socket.close();
            synchronized (connections) {
                for (Socket s : connections) {
                    s.close();
                }
            }
        }
    }
}
