package dev.rmqpatch.patches;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * A loopback TCP relay that records what clients send: it listens on one address and port and passes every
 * connection's bytes both ways to another, keeping a copy of the client's side per connection. For tests that compare
 * what two clients put on the wire (the remoting frames, {@link #frames}).
 */
final class RecordingProxy implements AutoCloseable {

    /** One remoting frame as the client sent it: its request code, header JSON and body. */
    record Frame(int code, String header, byte[] body) {
    }

    private final ServerSocket server;
    private final InetSocketAddress target;
    private final List<ByteArrayOutputStream> connections = new ArrayList<>();
    private final List<Socket> sockets = new ArrayList<>();
    private final Thread acceptor;

    RecordingProxy(InetSocketAddress listen, InetSocketAddress target) throws IOException {
        this.server = new ServerSocket();
        this.server.bind(listen);
        this.target = target;
        this.acceptor = new Thread(this::accept, "recording-proxy-accept");
        this.acceptor.setDaemon(true);
        this.acceptor.start();
    }

    private void accept() {
        while (!server.isClosed()) {
            try {
                Socket in = server.accept();
                Socket out = new Socket();
                out.connect(target, 5_000);
                ByteArrayOutputStream copy = new ByteArrayOutputStream();
                synchronized (this) {
                    connections.add(copy);
                    sockets.add(in);
                    sockets.add(out);
                }
                pump(in.getInputStream(), out.getOutputStream(), copy, out);
                pump(out.getInputStream(), in.getOutputStream(), null, in);
            } catch (IOException e) {
                return;
            }
        }
    }

    private static void pump(InputStream from, OutputStream to, ByteArrayOutputStream copy, Socket closeOnEnd) {
        Thread t = new Thread(() -> {
            byte[] buf = new byte[64 * 1024];
            try {
                for (int n; (n = from.read(buf)) > 0; ) {
                    if (copy != null) {
                        synchronized (copy) {
                            copy.write(buf, 0, n);
                        }
                    }
                    to.write(buf, 0, n);
                    to.flush();
                }
            } catch (IOException ignored) {
                // the other side closed
            } finally {
                try {
                    closeOnEnd.close();
                } catch (IOException ignored) {
                    // closing anyway
                }
            }
        }, "recording-proxy-pump");
        t.setDaemon(true);
        t.start();
    }

    /** Every complete frame the clients sent, connection by connection, in order. */
    synchronized List<Frame> frames() {
        List<Frame> frames = new ArrayList<>();
        for (ByteArrayOutputStream c : connections) {
            byte[] bytes;
            synchronized (c) {
                bytes = c.toByteArray();
            }
            ByteBuffer b = ByteBuffer.wrap(bytes);
            while (b.remaining() >= 8) {
                int length = b.getInt(b.position());
                if (b.remaining() < 4 + length) {
                    break;
                }
                b.getInt();
                int headerLength = b.getInt() & 0xFFFFFF;
                byte[] header = new byte[headerLength];
                b.get(header);
                byte[] body = new byte[length - 4 - headerLength];
                b.get(body);
                String json = new String(header, StandardCharsets.UTF_8);
                frames.add(new Frame(code(json), json, body));
            }
        }
        return frames;
    }

    private static int code(String json) {
        int at = json.indexOf("\"code\":");
        if (at < 0) {
            return -1;
        }
        int end = at + 7;
        while (end < json.length() && (Character.isDigit(json.charAt(end)) || json.charAt(end) == '-')) {
            end++;
        }
        return Integer.parseInt(json.substring(at + 7, end));
    }

    @Override
    public synchronized void close() throws IOException {
        server.close();
        for (Socket s : sockets) {
            s.close();
        }
    }
}
