package dev.rmqpatch.patches;

import java.util.Arrays;
import java.util.Collections;
import java.util.List;

import dev.rmqpatch.patches.transform.Bridge;
import dev.rmqpatch.patches.transform.MethodEdit;
import dev.rmqpatch.patches.transform.MethodRef;
import dev.rmqpatch.patches.transform.PatchException;
import dev.rmqpatch.patches.transform.ReplaceCall;
import dev.rmqpatch.patches.transform.Switch;
import org.objectweb.asm.Opcodes;
import org.objectweb.asm.tree.AbstractInsnNode;
import org.objectweb.asm.tree.ClassNode;
import org.objectweb.asm.tree.InsnList;
import org.objectweb.asm.tree.MethodInsnNode;
import org.objectweb.asm.tree.MethodNode;
import org.objectweb.asm.tree.TypeInsnNode;
import org.objectweb.asm.tree.VarInsnNode;

/**
 * P3. Target: {@code SendMessageProcessor.asyncSendMessage(...)} in rocketmq-broker, the handler of every
 * non-batch send.
 * Replacement, two edits in that method:
 * <ol>
 *   <li>its one {@code MessageDecoder.messageProperties2String(msgInner.getProperties())}, whose result becomes
 *       the stored properties string, calls {@code MessageProperties.encodeForStore} instead, which leaves out
 *       WAIT and any key configured in {@code -Drmqpatch.transientProperties}. The map keeps WAIT, so
 *       {@code isWaitStoreMsgOK()} still answers as before while the request is handled;</li>
 *   <li>its second {@code MessageDecoder.string2messageProperties(requestHeader.getProperties())}, which stock
 *       uses only to read TRAN_MSG, reads {@code msgInner.getProperties()} instead: the map parsed from the same
 *       string a few lines earlier, which has since gained only CLUSTER.</li>
 * </ol>
 * Other paths that re-encode properties (batch sends, delayed and transactional messages, retries) keep writing
 * WAIT, as in 4.9.1 (which strips WAIT in this one method too).
 * Why: 10 CommitLog bytes per message, and the second parse is about half of the ~4% of broker CPU that
 * string2messageProperties costs (docs/baseline.md).
 * Tests: see {@link #tests()}; measured: see {@link #benchmark()}.
 */
final class TransientPropertiesPatch implements Patch {

    @Override
    public String id() {
        return "P3";
    }

    @Override
    public String name() {
        return "transient-properties";
    }

    @Override
    public String buys() {
        return "11 CommitLog bytes less per message (`WAIT\\u0001true\\u0002` and the trailing separator), one properties parse "
            + "less per send";
    }

    @Override
    public String effect() {
        return "Normal sends store their properties without WAIT=true and the trailing separator (11 bytes less per message) while the broker "
            + "still honours WAIT during the request, and the properties string is parsed once per send instead of twice.";
    }

    @Override
    public String why() {
        return "WAIT only steers request handling; persisting it costs 10 CommitLog bytes on every message (11 with "
            + "the trailing separator, which nothing appends to for a single send). The second parse repeats work whose result is already in the message: "
            + "about half of the ~4% of broker CPU that string2messageProperties costs (docs/baseline.md).";
    }

    @Override
    public String verification() {
        return "Messages stored after the restart carry no WAIT property (mqadmin queryMsgById lists none; "
            + "stock brokers store WAIT=true with nearly every message), and producers configured with "
            + "setWaitStoreMsgOK(true) on a SYNC_FLUSH or SYNC_MASTER broker still wait for the flush or the slave.";
    }

    @Override
    public String tests() {
        return "DropInIT, JarPatcherTest, BrokerFeaturesIT";
    }

    @Override
    public String benchmark() {
        return "SendPathBenchmark";
    }

    @Override
    public ReleaseFit on(Release release) {
        return release.atLeast(Release.V4_9_3) ? ReleaseFit.upstream(
            "4.9.3's asyncSendMessage parses the properties once and drops WAIT "
            + "before storing (read)") : ReleaseFit.APPLIES;
    }

    @Override
    public List<MethodEdit> edits() {
        return Arrays.<MethodEdit>asList(
            new ReplaceCall(Stock.ASYNC_SEND_MESSAGE, Stock.PROPERTIES_TO_STRING, Codec.ENCODE_PROPERTIES_FOR_STORE, 1),
            new ReuseParsedProperties());
    }

    /** Edit 2: the second parse of the request's properties string reads the message's map instead. */
    static final class ReuseParsedProperties implements MethodEdit {

        private static final String GET_PROPERTIES_DESC = "()Ljava/util/Map;";

        @Override
        public MethodRef target() {
            return Stock.ASYNC_SEND_MESSAGE;
        }

        @Override
        public List<MethodRef> calls() {
            return Collections.emptyList();
        }

        @Override
        public void apply(ClassNode owner, MethodNode m, Switch sw) throws PatchException {
            int msgInner = messageLocal(m);
            List<MethodInsnNode> parses = ReplaceCall.callSites(m, Stock.STRING_TO_PROPERTIES);
            if (parses.size() != 2) {
                throw new PatchException("expected 2 calls of " + Stock.STRING_TO_PROPERTIES + " in "
                    + Stock.ASYNC_SEND_MESSAGE + ", found " + parses.size());
            }
            MethodInsnNode second = parses.get(1);
            AbstractInsnNode getProps = second.getPrevious();
            AbstractInsnNode loadHeader = getProps == null ? null : getProps.getPrevious();
            if (!isHeaderGetProperties(getProps) || loadHeader == null || loadHeader.getOpcode() != Opcodes.ALOAD) {
                throw new PatchException("the second properties parse in " + Stock.ASYNC_SEND_MESSAGE
                    + " is not requestHeader.getProperties() as in 4.9.0");
            }
            Switch.require(sw, this);
            // requestHeader stays on the stack; the bridge gets msgInner beside it and picks the map or a parse.
            InsnList patched = readMessageMap(1);
            InsnList stock = new InsnList();
            stock.add(new VarInsnNode(Opcodes.ALOAD, 0));
            stock.add(new MethodInsnNode(Opcodes.INVOKEVIRTUAL, Stock.SEND_MESSAGE_REQUEST_HEADER, "getProperties",
                "()Ljava/lang/String;", false));
            stock.add(new MethodInsnNode(Opcodes.INVOKESTATIC, Stock.STRING_TO_PROPERTIES.owner,
                Stock.STRING_TO_PROPERTIES.name, Stock.STRING_TO_PROPERTIES.desc, false));
            MethodInsnNode bridge = Bridge.add(owner, "rmqpatch$" + sw.field + "$requestProperties",
                "(L" + Stock.SEND_MESSAGE_REQUEST_HEADER + ";L" + Stock.MESSAGE_EXT_BROKER_INNER + ";)Ljava/util/Map;",
                sw, patched, stock);
            m.instructions.insertBefore(getProps, new VarInsnNode(Opcodes.ALOAD, msgInner));
            m.instructions.remove(getProps);
            m.instructions.set(second, bridge);
        }

        private static InsnList readMessageMap(int local) {
            InsnList list = new InsnList();
            list.add(new VarInsnNode(Opcodes.ALOAD, local));
            list.add(new MethodInsnNode(Opcodes.INVOKEVIRTUAL, Stock.MESSAGE_EXT_BROKER_INNER, "getProperties",
                GET_PROPERTIES_DESC, false));
            return list;
        }

        /** The local that holds the one {@code new MessageExtBrokerInner()} of the method. */
        private static int messageLocal(MethodNode m) throws PatchException {
            int found = -1;
            for (AbstractInsnNode insn = m.instructions.getFirst(); insn != null; insn = insn.getNext()) {
                if (insn.getOpcode() == Opcodes.NEW && Stock.MESSAGE_EXT_BROKER_INNER.equals(((TypeInsnNode) insn).desc)) {
                    AbstractInsnNode dup = insn.getNext();
                    AbstractInsnNode init = dup == null ? null : dup.getNext();
                    AbstractInsnNode store = init == null ? null : init.getNext();
                    if (found >= 0 || dup == null || dup.getOpcode() != Opcodes.DUP
                        || init == null || init.getOpcode() != Opcodes.INVOKESPECIAL
                        || store == null || store.getOpcode() != Opcodes.ASTORE) {
                        throw new PatchException("expected exactly one 'msgInner = new MessageExtBrokerInner()' in "
                            + Stock.ASYNC_SEND_MESSAGE);
                    }
                    found = ((VarInsnNode) store).var;
                }
            }
            if (found < 0) {
                throw new PatchException("no 'new MessageExtBrokerInner()' in " + Stock.ASYNC_SEND_MESSAGE);
            }
            return found;
        }

        private static boolean isHeaderGetProperties(AbstractInsnNode insn) {
            if (insn == null || insn.getOpcode() != Opcodes.INVOKEVIRTUAL) {
                return false;
            }
            MethodInsnNode mi = (MethodInsnNode) insn;
            return mi.owner.equals(Stock.SEND_MESSAGE_REQUEST_HEADER) && mi.name.equals("getProperties");
        }

        @Override
        public String brief() {
            return "second `MessageDecoder.string2messageProperties` \u2192 the message's parsed map";
        }

        @Override
        public String describe() {
            return "second string2messageProperties(requestHeader.getProperties()) in " + Stock.ASYNC_SEND_MESSAGE
                + " reads msgInner.getProperties()";
        }
    }
}
