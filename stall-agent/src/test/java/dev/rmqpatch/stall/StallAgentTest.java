package dev.rmqpatch.stall;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.InputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.objectweb.asm.ClassReader;
import org.objectweb.asm.ClassVisitor;
import org.objectweb.asm.MethodVisitor;
import org.objectweb.asm.Opcodes;

/** The plan's argument, the hook's schedule and the rewrite of stock 4.9.0's store classes. */
class StallAgentTest {

    @Test
    void aPlanIsReadWithItsDefaults() {
        StallPlan p = StallPlan.parse("point=append,millis=500");
        assertEquals(StallPoint.APPEND, p.point);
        assertEquals(500, p.millis);
        assertEquals(5_000, p.everyMillis);
        assertEquals(10_000, p.afterMillis);
        assertEquals(Long.MAX_VALUE, p.times);
        assertEquals("point=flush,millis=100,everyMillis=1000,afterMillis=20000",
            StallPlan.argument(StallPoint.FLUSH, 100, 1000, 20_000), "the harness's argument, read back the same");
        assertEquals(StallPlan.argument(StallPoint.FLUSH, 100, 1000, 20_000),
            StallPlan.parse(StallPlan.argument(StallPoint.FLUSH, 100, 1000, 20_000)).toString());
        StallPlan q = StallPlan.parse("point=Replica,millis=50,everyMillis=1000,afterMillis=0,times=3");
        assertEquals("point=replica,millis=50,everyMillis=1000,afterMillis=0,times=3", q.toString());
        assertEquals("point=append,millis=8000,everyMillis=60000,afterMillis=30000,times=1",
            StallPlan.argument(StallPoint.APPEND, 8_000, 60_000, 30_000, 1), "a single long stall (failover.sh --stall-times 1)");
        assertEquals(1, StallPlan.parse(StallPlan.argument(StallPoint.APPEND, 8_000, 60_000, 30_000, 1)).times);
    }

    @Test
    void aBadPlanSaysWhat() {
        String[][] bad = {
            {null, "no stall plan"},
            {"point=append", "point and millis are required"},
            {"point=disk,millis=5", "unknown stall point 'disk'"},
            {"point=append,millis=five", "millis must be a whole number"},
            {"point=append,millis=0", "millis must be between 1"},
            {"point=append,millis=500,everyMillis=400", "must be longer than millis"},
            {"point=append,millis=5,colour=red", "unknown key 'colour'"},
            {"point=append,millis=5,millis=6", "given twice"},
            {"append", "not key=value"},
        };
        for (String[] b : bad) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> StallPlan.parse(b[0]));
            assertTrue(e.getMessage().contains(b[1]), b[0] + ": " + e.getMessage());
        }
    }

    @Test
    void theFirstEntryWhenDueStallsAndSaysSoThenNotUntilTheNextIsDue() {
        ByteArrayOutputStream lines = new ByteArrayOutputStream();
        Stalls.arm(StallPlan.parse("point=append,millis=1,everyMillis=3600000,afterMillis=0"),
            new PrintStream(lines, true));
        Stalls.at(StallPoint.FLUSH.ordinal()); // another point: nothing
        assertEquals(0, Stalls.done());
        for (int i = 0; i < 1000; i++) {
            Stalls.at(StallPoint.APPEND.ordinal());
        }
        assertEquals(1, Stalls.done(), "one stall, the next an hour away");
        String out = lines.toString(StandardCharsets.UTF_8);
        assertTrue(out.matches("\\[rmqpatch-stall\\] append #1 at \\d+ for 1 ms on thread main\\R"), out);
        List<StallLine> read = StallLine.parse("broker boot success\n" + out);
        assertEquals(1, read.size(), out);
        assertEquals("append", read.get(0).point);
        assertEquals(1, read.get(0).n);
        assertEquals(1, read.get(0).ms);
        assertEquals("main", read.get(0).thread);
        assertTrue(Math.abs(System.currentTimeMillis() - read.get(0).at) < 600_000, "a wall-clock start: " + read.get(0).at);
        // times bounds them; afterMillis holds the first back.
        Stalls.arm(StallPlan.parse("point=append,millis=1,everyMillis=2,afterMillis=0,times=1"), new PrintStream(lines));
        Stalls.at(StallPoint.APPEND.ordinal());
        assertEquals(1, Stalls.done());
        Stalls.arm(StallPlan.parse("point=append,millis=1,afterMillis=3600000"), new PrintStream(lines));
        Stalls.at(StallPoint.APPEND.ordinal());
        assertEquals(0, Stalls.done(), "not due within afterMillis");
    }

    /** Each point's method in stock 4.9.0's store begins with the hook's call and is otherwise unchanged. */
    @Test
    void everyPointsMethodInStock490BeginsWithTheCall() throws Exception {
        for (StallPoint point : StallPoint.values()) {
            byte[] stock = classBytes(point.owner);
            StallTransformer t = new StallTransformer(point);
            byte[] changed = t.transform(null, point.owner, null, null, stock);
            assertEquals(1, t.changed(), point + ": one method");
            List<String> first = firstInstructions(changed, point.method, 2);
            assertEquals(List.of("BIPUSH " + point.ordinal(), "INVOKESTATIC dev/rmqpatch/stall/Stalls.at(I)V"), first,
                point.toString());
            assertEquals(firstInstructions(stock, point.method, 3).subList(0, 3),
                firstInstructions(changed, point.method, 5).subList(2, 5), point + ": stock's code follows");
            assertEquals(null, t.transform(null, "org/apache/rocketmq/store/CommitLog", null, null,
                classBytes("org/apache/rocketmq/store/CommitLog")), "other classes untouched");
        }
    }

    private static byte[] classBytes(String internalName) throws Exception {
        try (InputStream in = StallAgentTest.class.getClassLoader().getResourceAsStream(internalName + ".class")) {
            return in.readAllBytes();
        }
    }

    private static List<String> firstInstructions(byte[] bytes, String method, int n) {
        List<String> out = new ArrayList<>();
        new ClassReader(bytes).accept(new ClassVisitor(Opcodes.ASM9) {
            @Override
            public MethodVisitor visitMethod(int access, String name, String desc, String sig, String[] ex) {
                if (!name.equals(method)) {
                    return null;
                }
                return new MethodVisitor(Opcodes.ASM9) {
                    private void add(String s) {
                        if (out.size() < n) {
                            out.add(s);
                        }
                    }

                    @Override
                    public void visitIntInsn(int opcode, int operand) {
                        add((opcode == Opcodes.BIPUSH ? "BIPUSH " : "INT" + opcode + " ") + operand);
                    }

                    @Override
                    public void visitInsn(int opcode) {
                        add("INSN " + opcode);
                    }

                    @Override
                    public void visitVarInsn(int opcode, int var) {
                        add("VAR " + opcode + " " + var);
                    }

                    @Override
                    public void visitFieldInsn(int opcode, String owner, String name, String desc) {
                        add("FIELD " + opcode + " " + owner + "." + name);
                    }

                    @Override
                    public void visitTypeInsn(int opcode, String type) {
                        add("TYPE " + opcode + " " + type);
                    }

                    @Override
                    public void visitLdcInsn(Object value) {
                        add("LDC " + value);
                    }

                    @Override
                    public void visitMethodInsn(int opcode, String owner, String name, String desc, boolean itf) {
                        add((opcode == Opcodes.INVOKESTATIC ? "INVOKESTATIC " : "INVOKE" + opcode + " ") + owner + "."
                            + name + desc);
                    }

                    @Override
                    public void visitJumpInsn(int opcode, org.objectweb.asm.Label label) {
                        add("JUMP " + opcode);
                    }
                };
            }
        }, ClassReader.SKIP_DEBUG);
        return out;
    }
}
