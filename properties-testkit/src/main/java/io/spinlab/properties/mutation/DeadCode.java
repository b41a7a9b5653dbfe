package io.spinlab.properties.mutation;

import org.objectweb.asm.Opcodes;
import org.objectweb.asm.tree.AbstractInsnNode;
import org.objectweb.asm.tree.JumpInsnNode;
import org.objectweb.asm.tree.LookupSwitchInsnNode;
import org.objectweb.asm.tree.MethodNode;
import org.objectweb.asm.tree.TableSwitchInsnNode;
import org.objectweb.asm.tree.TryCatchBlockNode;

import java.util.ArrayDeque;
import java.util.Deque;
import java.util.HashSet;
import java.util.Iterator;
import java.util.Set;

/**
 * Removes the instructions of a mutated method that no path reaches. A branch made always taken
 * ({@link Mutation#branchAlwaysTaken}) leaves its fall-through code dead; ASM's frame computation
 * then fills it with {@code NOP … ATHROW}, a block Lincheck's instrumentation cannot analyse ("Jump
 * edge must be produced by the last opcode of the source block"), and the method is checked without
 * its switch points, so a mutant there would pass for the wrong reason. Dead code never runs, so
 * removing it changes nothing the mutant does.
 */
final class DeadCode {
    private DeadCode() {
    }

    /** Removes {@code node}'s unreachable instructions and the exception ranges left empty. */
    static void remove(MethodNode node) {
        if (node.instructions.size() == 0) {
            return;
        }
        Set<AbstractInsnNode> reached = reachable(node);
        for (Iterator<AbstractInsnNode> it = node.instructions.iterator(); it.hasNext(); ) {
            AbstractInsnNode insn = it.next();
            if (insn.getOpcode() >= 0 && !reached.contains(insn)) {
                it.remove();
            }
        }
        node.tryCatchBlocks.removeIf(block -> !holdsAnInstruction(block));
    }

    private static Set<AbstractInsnNode> reachable(MethodNode node) {
        Set<AbstractInsnNode> reached = new HashSet<>();
        Deque<AbstractInsnNode> work = new ArrayDeque<>();
        work.push(node.instructions.getFirst());
        boolean handlersAdded = true;
        while (handlersAdded) {
            while (!work.isEmpty()) {
                AbstractInsnNode insn = work.pop();
                if (insn == null || !reached.add(insn)) {
                    continue;
                }
                successors(insn, work);
            }
            handlersAdded = false;
            for (TryCatchBlockNode block : node.tryCatchBlocks) {
                if (!reached.contains(block.handler) && coversAReachedInstruction(block, reached)) {
                    work.push(block.handler);
                    handlersAdded = true;
                }
            }
        }
        return reached;
    }

    private static void successors(AbstractInsnNode insn, Deque<AbstractInsnNode> work) {
        int opcode = insn.getOpcode();
        if (insn instanceof JumpInsnNode jump) {
            work.push(jump.label);
            if (opcode != Opcodes.GOTO) {
                work.push(insn.getNext());
            }
        } else if (insn instanceof TableSwitchInsnNode table) {
            work.push(table.dflt);
            table.labels.forEach(work::push);
        } else if (insn instanceof LookupSwitchInsnNode lookup) {
            work.push(lookup.dflt);
            lookup.labels.forEach(work::push);
        } else if (!(opcode >= Opcodes.IRETURN && opcode <= Opcodes.RETURN) && opcode != Opcodes.ATHROW) {
            work.push(insn.getNext());
        }
    }

    private static boolean coversAReachedInstruction(TryCatchBlockNode block, Set<AbstractInsnNode> reached) {
        for (AbstractInsnNode insn = block.start; insn != null && insn != block.end; insn = insn.getNext()) {
            if (insn.getOpcode() >= 0 && reached.contains(insn)) {
                return true;
            }
        }
        return false;
    }

    private static boolean holdsAnInstruction(TryCatchBlockNode block) {
        for (AbstractInsnNode insn = block.start; insn != null && insn != block.end; insn = insn.getNext()) {
            if (insn.getOpcode() >= 0) {
                return true;
            }
        }
        return false;
    }
}
