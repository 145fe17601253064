package dev.rmqpatch.jmh;

import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import org.apache.rocketmq.remoting.protocol.RemotingCommand;
import org.apache.rocketmq.remoting.protocol.RemotingSerializable;
import org.apache.rocketmq.remoting.protocol.RocketMQSerializable;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Not a reader: the least work any JSON header reader must do for {@link JsonHeaderDecodeBenchmark}'s input, to put
 * its stock and patched figures in proportion. One look at every byte of the header (a table load each, the cheapest
 * check that tells a plain byte from a quote, a backslash or a byte to decode), plus the objects stock's result is
 * made of: the command, the ext-fields HashMap with its entries, and a copy of every value that is not a one-char or
 * boolean constant (the properties value already unescaped). It finds no token and decodes no escape, so no reader
 * can be faster; a reader that needs N times the floor spends the difference on telling tokens apart.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 5, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 2, jvmArgsAppend = {"-Xms1g", "-Xmx1g"})
public class JsonHeaderDecodeFloorBenchmark {

    /** A ROCKETMQ-serialised header of all zeros, the reader's way to a blank command. */
    private static final byte[] BLANK = new byte[21];

    private static final boolean[] PLAIN = new boolean[256];

    static {
        for (int c = 0x20; c < 0x80; c++) {
            PLAIN[c] = c != '"' && c != '\\';
        }
    }

    /** The input's header and what stock decodes it to, taken apart once. */
    @State(Scope.Benchmark)
    public static class Parts {
        byte[] header;
        String[] keys;
        /** Latin-1 bytes of each value to copy, or null where {@link #shared} holds a constant. */
        byte[][] values;
        String[] shared;
        RemotingCommand stock;

        @Setup
        public void setup(Inputs in) {
            header = in.requestHeader;
            stock = RemotingSerializable.decode(header, RemotingCommand.class);
            Map<String, String> ext = stock.getExtFields();
            keys = new String[ext.size()];
            values = new byte[ext.size()][];
            shared = new String[ext.size()];
            int k = 0;
            for (Map.Entry<String, String> e : ext.entrySet()) {
                keys[k] = e.getKey().intern();
                String v = e.getValue();
                if (v.length() == 1 || v.equals("true") || v.equals("false")) {
                    shared[k] = v.intern();
                } else {
                    values[k] = v.getBytes(StandardCharsets.ISO_8859_1);
                    if (!new String(values[k], StandardCharsets.ISO_8859_1).equals(v)) {
                        throw new IllegalStateException("value of " + e.getKey() + " is not Latin-1; the floor copies bytes");
                    }
                }
                k++;
            }
        }
    }

    @Benchmark
    public RemotingCommand floor(Parts p) {
        final byte[] b = p.header;
        final boolean[] plain = PLAIN;
        int special = 0;
        for (int i = 0; i < b.length; i++) {
            if (!plain[b[i] & 0xFF]) {
                special++;
            }
        }
        HashMap<String, String> map = new HashMap<String, String>();
        for (int k = 0; k < p.keys.length; k++) {
            byte[] v = p.values[k];
            map.put(p.keys[k], v == null ? p.shared[k] : latin1(v));
        }
        RemotingCommand cmd = RocketMQSerializable.rocketMQProtocolDecode(BLANK);
        cmd.setOpaque(p.stock.getOpaque() + special);
        cmd.setCode(p.stock.getCode());
        cmd.setVersion(p.stock.getVersion());
        cmd.setFlag(p.stock.getFlag());
        cmd.setLanguage(p.stock.getLanguage());
        cmd.setSerializeTypeCurrentRPC(p.stock.getSerializeTypeCurrentRPC());
        cmd.setExtFields(map);
        return cmd;
    }

    /** A String of Latin-1 bytes, as the patched reader makes one. */
    @SuppressWarnings("deprecation")
    private static String latin1(byte[] v) {
        return new String(v, 0, 0, v.length);
    }
}
