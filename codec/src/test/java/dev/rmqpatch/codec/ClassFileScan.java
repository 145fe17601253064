package dev.rmqpatch.codec;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

import org.objectweb.asm.AnnotationVisitor;
import org.objectweb.asm.ClassReader;
import org.objectweb.asm.ClassVisitor;
import org.objectweb.asm.FieldVisitor;
import org.objectweb.asm.Handle;
import org.objectweb.asm.Label;
import org.objectweb.asm.MethodVisitor;
import org.objectweb.asm.Opcodes;
import org.objectweb.asm.Type;

/**
 * Finds reflection in a class file, two independent ways: every UTF-8 constant-pool entry (class names,
 * descriptors, signatures and string literals all live there), and every symbolic reference in the code
 * (owners, descriptors, and the {@code java.lang.Class} methods that reflect without naming a reflect type).
 */
public final class ClassFileScan {

    private static final String SLASHED = "java/lang/reflect";
    private static final String DOTTED = "java.lang.reflect";
    private static final Set<String> REFLECTIVE_CLASS_METHODS = new HashSet<>(Arrays.asList(
        "forName", "newInstance", "getField", "getFields", "getDeclaredField", "getDeclaredFields",
        "getMethod", "getMethods", "getDeclaredMethod", "getDeclaredMethods", "getConstructor", "getConstructors",
        "getDeclaredConstructor", "getDeclaredConstructors", "getRecordComponents"));
    private static final int CONSTANT_UTF8 = 1;

    private ClassFileScan() {
    }

    public static int majorVersion(byte[] classFile) {
        return new ClassReader(classFile).readUnsignedShort(6);
    }

    public static List<String> reflectiveReferences(byte[] classFile) {
        List<String> hits = new ArrayList<>(constantPoolHits(classFile));
        hits.addAll(codeHits(classFile));
        return hits;
    }

    /** UTF-8 constants that name java.lang.reflect, slashed or dotted. */
    public static List<String> constantPoolHits(byte[] classFile) {
        ClassReader cr = new ClassReader(classFile);
        List<String> hits = new ArrayList<>();
        for (int i = 1; i < cr.getItemCount(); i++) {
            int offset = cr.getItem(i);
            if (offset == 0 || cr.readByte(offset - 1) != CONSTANT_UTF8) {
                continue; // 0: the unusable slot after a long or double constant
            }
            int length = cr.readUnsignedShort(offset);
            byte[] bytes = new byte[length];
            for (int b = 0; b < length; b++) {
                bytes[b] = (byte) cr.readByte(offset + 2 + b);
            }
            // Modified UTF-8 equals ASCII for the names searched for, so a byte-wise view suffices.
            String text = new String(bytes, StandardCharsets.ISO_8859_1);
            if (text.contains(SLASHED) || text.contains(DOTTED)) {
                hits.add("constant pool #" + i + ": " + text);
            }
        }
        return hits;
    }

    /** Symbolic references in declarations and instructions. */
    public static List<String> codeHits(byte[] classFile) {
        List<String> hits = new ArrayList<>();
        new ClassReader(classFile).accept(new ClassVisitor(Opcodes.ASM9) {
            @Override
            public void visit(int version, int access, String name, String signature, String superName,
                              String[] interfaces) {
                check(hits, "superclass", superName);
                check(hits, "signature", signature);
                if (interfaces != null) {
                    for (String i : interfaces) {
                        check(hits, "interface", i);
                    }
                }
            }

            @Override
            public AnnotationVisitor visitAnnotation(String descriptor, boolean visible) {
                check(hits, "annotation", descriptor);
                return null;
            }

            @Override
            public FieldVisitor visitField(int access, String name, String descriptor, String signature, Object value) {
                check(hits, "field " + name, descriptor);
                check(hits, "field " + name, signature);
                return null;
            }

            @Override
            public MethodVisitor visitMethod(int access, String name, String descriptor, String signature,
                                             String[] exceptions) {
                String method = "method " + name + descriptor;
                check(hits, method, descriptor);
                check(hits, method, signature);
                if (exceptions != null) {
                    for (String e : exceptions) {
                        check(hits, method + " throws", e);
                    }
                }
                return new MethodVisitor(Opcodes.ASM9) {
                    @Override
                    public void visitMethodInsn(int opcode, String owner, String callee, String calleeDescriptor,
                                                boolean isInterface) {
                        String where = method + " calls " + owner + "." + callee + calleeDescriptor;
                        check(hits, where, owner);
                        check(hits, where, calleeDescriptor);
                        if ("java/lang/Class".equals(owner) && REFLECTIVE_CLASS_METHODS.contains(callee)
                            || "java/lang/invoke/MethodHandles$Lookup".equals(owner)) {
                            hits.add(where);
                        }
                    }

                    @Override
                    public void visitFieldInsn(int opcode, String owner, String field, String fieldDescriptor) {
                        check(hits, method + " accesses " + owner + "." + field, owner);
                        check(hits, method + " accesses " + owner + "." + field, fieldDescriptor);
                    }

                    @Override
                    public void visitTypeInsn(int opcode, String type) {
                        check(hits, method + " type", type);
                    }

                    @Override
                    public void visitMultiANewArrayInsn(String descriptor, int dims) {
                        check(hits, method + " array", descriptor);
                    }

                    @Override
                    public void visitLdcInsn(Object value) {
                        checkConstant(hits, method + " ldc", value);
                    }

                    @Override
                    public void visitInvokeDynamicInsn(String indyName, String indyDescriptor, Handle bsm,
                                                       Object... args) {
                        check(hits, method + " indy", indyDescriptor);
                        checkConstant(hits, method + " indy bootstrap", bsm);
                        for (Object a : args) {
                            checkConstant(hits, method + " indy argument", a);
                        }
                    }

                    @Override
                    public void visitTryCatchBlock(Label start, Label end, Label handler, String type) {
                        check(hits, method + " catch", type);
                    }

                    @Override
                    public void visitLocalVariable(String local, String descriptor, String signature, Label start,
                                                   Label end, int index) {
                        check(hits, method + " local " + local, descriptor);
                        check(hits, method + " local " + local, signature);
                    }
                };
            }
        }, 0);
        return hits;
    }

    private static void checkConstant(List<String> hits, String where, Object value) {
        if (value instanceof Type) {
            check(hits, where, ((Type) value).getDescriptor());
        } else if (value instanceof Handle) {
            Handle h = (Handle) value;
            check(hits, where, h.getOwner());
            check(hits, where, h.getDesc());
        } else if (value instanceof String) {
            check(hits, where, (String) value);
        }
    }

    private static void check(List<String> hits, String where, String symbol) {
        if (symbol != null && (symbol.contains(SLASHED) || symbol.contains(DOTTED))) {
            hits.add(where + ": " + symbol);
        }
    }
}
