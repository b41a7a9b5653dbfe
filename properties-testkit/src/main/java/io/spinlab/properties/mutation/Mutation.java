package io.spinlab.properties.mutation;

import org.objectweb.asm.ClassReader;
import org.objectweb.asm.ClassWriter;
import org.objectweb.asm.Opcodes;
import org.objectweb.asm.Type;
import org.objectweb.asm.tree.AbstractInsnNode;
import org.objectweb.asm.tree.ClassNode;
import org.objectweb.asm.tree.FieldInsnNode;
import org.objectweb.asm.tree.IincInsnNode;
import org.objectweb.asm.tree.InsnList;
import org.objectweb.asm.tree.InsnNode;
import org.objectweb.asm.tree.JumpInsnNode;
import org.objectweb.asm.tree.MethodInsnNode;
import org.objectweb.asm.tree.MethodNode;
import org.objectweb.asm.tree.VarInsnNode;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * One planted bug: one instruction of one method of a real class, changed. {@link Mutants}
 * loads a copy of the class with the change (and of the code that uses it); the class on the
 * class path stays as it is.
 *
 * <p>The kinds are the bugs a concurrent primitive is one slip away from:
 * <ul>
 *   <li>{@link #casToPlainSet}: a {@code VarHandle.compareAndSet} becomes a plain
 *       {@code VarHandle.set} of the new value that reports success, so two threads that read the
 *       same value both "win" (a lost update, a permit taken twice, a lock entered twice);</li>
 *   <li>{@link #branchNeverTaken}: a conditional jump is never taken, its operands dropped (a
 *       skipped re-check: the code goes on as if the condition it tested did not hold);</li>
 *   <li>{@link #branchAlwaysTaken}: a conditional jump is always taken (a skipped check: the
 *       code goes on as if the condition it tested held);</li>
 *   <li>{@link #opcodeReplaced}: one instruction becomes another of the same operands ({@code IAND}
 *       for {@code IOR}: PIT's math mutator, a mask that tests nothing; {@code IFLT} for {@code IFLE}:
 *       its conditionals-boundary mutator);</li>
 *   <li>{@link #returnsNull} and {@link #returnsZero}: a method returns null or 0 at one of its
 *       returns (PIT's null- and primitive-returns mutators);</li>
 *   <li>{@link #callRemoved}: a call to a {@code void} method is dropped, its arguments (and
 *       receiver) popped (PIT's void-method-call mutator);</li>
 *   <li>{@link #incrementNegated}: an {@code IINC} adds the negated amount (PIT's increments
 *       mutator);</li>
 *   <li>{@link #returnsTrue} and {@link #returnsFalse}: a {@code boolean} method returns a constant
 *       at one of its returns (PIT's true- and false-returns mutators: a failed attempt reported as a
 *       success, or a success as a failure).</li>
 * </ul>
 * Weakened fences (a volatile write made plain) are not among them: Lincheck's model checker
 * explores sequentially consistent executions only, and stress runs on x86 (TSO) hardly ever
 * reorder, so neither checker could show such a mutant.
 *
 * @param target the real class to change
 * @param method the method's name, or name and descriptor ({@code "signal(I)Z"}) when overloaded
 * @param kind what changes
 * @param anchor for a CAS, the static VarHandle field it goes through; for a branch or a return, the
 *               opcode's name; for a replaced opcode, the two names, {@code "IAND>IOR"}
 * @param occurrence which matching instruction in the method, from 0
 */
public record Mutation(Class<?> target, String method, Kind kind, String anchor, int occurrence) {

    /** What a mutation changes. */
    public enum Kind {
        CAS_TO_PLAIN_SET,
        BRANCH_NEVER_TAKEN,
        BRANCH_ALWAYS_TAKEN,
        OPCODE_REPLACED,
        RETURNS_TRUE,
        RETURNS_FALSE,
        RETURNS_NULL,
        RETURNS_ZERO,
        CALL_REMOVED,
        INCREMENT_NEGATED
    }

    public Mutation {
        Objects.requireNonNull(target, "target");
        Objects.requireNonNull(method, "method");
        Objects.requireNonNull(kind, "kind");
        Objects.requireNonNull(anchor, "anchor");
        if (occurrence < 0) {
            throw new IllegalArgumentException("occurrence = " + occurrence + " is negative; allowed 0 or more");
        }
    }

    /** The {@code occurrence}-th {@code compareAndSet} through the VarHandle in {@code varHandleField}: a set. */
    public static Mutation casToPlainSet(Class<?> target, String method, String varHandleField, int occurrence) {
        return new Mutation(target, method, Kind.CAS_TO_PLAIN_SET, varHandleField, occurrence);
    }

    /** The only (or first) {@code compareAndSet} through {@code varHandleField} in the method becomes a set. */
    public static Mutation casToPlainSet(Class<?> target, String method, String varHandleField) {
        return casToPlainSet(target, method, varHandleField, 0);
    }

    /**
     * The {@code occurrence}-th conditional jump with opcode {@code opcodeName} ({@code "IF_ICMPGT"},
     * {@code "IFEQ"}, …) in the method is never taken.
     */
    public static Mutation branchNeverTaken(Class<?> target, String method, String opcodeName, int occurrence) {
        return new Mutation(target, method, Kind.BRANCH_NEVER_TAKEN, opcodeName, occurrence);
    }

    /** The {@code occurrence}-th conditional jump with opcode {@code opcodeName} in the method is always taken. */
    public static Mutation branchAlwaysTaken(Class<?> target, String method, String opcodeName, int occurrence) {
        return new Mutation(target, method, Kind.BRANCH_ALWAYS_TAKEN, opcodeName, occurrence);
    }

    /**
     * The {@code occurrence}-th instruction {@code from} ({@code "IAND"}) in the method becomes
     * {@code to} ({@code "IOR"}); both must take and leave the same operand types.
     */
    public static Mutation opcodeReplaced(Class<?> target, String method, String from, String to, int occurrence) {
        opcodeOf(from);
        opcodeOf(to);
        return new Mutation(target, method, Kind.OPCODE_REPLACED, from + ">" + to, occurrence);
    }

    /** At the {@code occurrence}-th {@code IRETURN} of a boolean method, the value returned is true. */
    public static Mutation returnsTrue(Class<?> target, String method, int occurrence) {
        return new Mutation(target, method, Kind.RETURNS_TRUE, "IRETURN", occurrence);
    }

    /** At the {@code occurrence}-th {@code IRETURN} of a boolean method, the value returned is false. */
    public static Mutation returnsFalse(Class<?> target, String method, int occurrence) {
        return new Mutation(target, method, Kind.RETURNS_FALSE, "IRETURN", occurrence);
    }

    /** At the {@code occurrence}-th {@code ARETURN} of the method, the value returned is null. */
    public static Mutation returnsNull(Class<?> target, String method, int occurrence) {
        return new Mutation(target, method, Kind.RETURNS_NULL, "ARETURN", occurrence);
    }

    /** At the {@code occurrence}-th {@code returnOpcode} ({@code "IRETURN"}, {@code "LRETURN"}), the value returned is 0. */
    public static Mutation returnsZero(Class<?> target, String method, String returnOpcode, int occurrence) {
        if (!returnOpcode.equals("IRETURN") && !returnOpcode.equals("LRETURN")) {
            throw new IllegalArgumentException(returnOpcode + " is not IRETURN or LRETURN");
        }
        return new Mutation(target, method, Kind.RETURNS_ZERO, returnOpcode, occurrence);
    }

    /** The {@code occurrence}-th call to a void method named {@code calledName} is dropped, its arguments (and receiver) popped. */
    public static Mutation callRemoved(Class<?> target, String method, String calledName, int occurrence) {
        return new Mutation(target, method, Kind.CALL_REMOVED, calledName, occurrence);
    }

    /** The {@code occurrence}-th {@code IINC} of the method adds the negated amount ({@code i++} becomes {@code i--}). */
    public static Mutation incrementNegated(Class<?> target, String method, int occurrence) {
        return new Mutation(target, method, Kind.INCREMENT_NEGATED, "IINC", occurrence);
    }

    /** A package-private top-level class in {@code neighbour}'s package. */
    public static Class<?> inPackage(Class<?> neighbour, String simpleName) {
        try {
            return Class.forName(neighbour.getPackageName() + "." + simpleName, false, neighbour.getClassLoader());
        } catch (ClassNotFoundException e) {
            throw new IllegalArgumentException(neighbour.getPackageName() + " has no class " + simpleName, e);
        }
    }

    /** A nested class of {@code outer} that the tests cannot name (private or package-private elsewhere). */
    public static Class<?> nested(Class<?> outer, String simpleName) {
        try {
            return Class.forName(outer.getName() + "$" + simpleName, false, outer.getClassLoader());
        } catch (ClassNotFoundException e) {
            throw new IllegalArgumentException(outer.getName() + " has no nested class " + simpleName, e);
        }
    }

    /** A name fit for a package: the class, the method, the kind and the site. */
    String id() {
        String name = target.getSimpleName() + "_" + method.replaceAll("[^A-Za-z0-9]", "_") + "_"
                + kind.name().toLowerCase(java.util.Locale.ROOT) + "_" + anchor + "_" + occurrence;
        return name.replaceAll("[^A-Za-z0-9_]", "_");
    }

    @Override
    public String toString() {
        String site = switch (kind) {
            case CAS_TO_PLAIN_SET -> "compareAndSet on " + anchor + " #" + occurrence + " -> plain set";
            case BRANCH_NEVER_TAKEN -> anchor + " #" + occurrence + " -> never taken";
            case BRANCH_ALWAYS_TAKEN -> anchor + " #" + occurrence + " -> always taken";
            case OPCODE_REPLACED -> anchor.replace(">", " #" + occurrence + " -> ");
            case RETURNS_TRUE -> "IRETURN #" + occurrence + " -> returns true";
            case RETURNS_FALSE -> "IRETURN #" + occurrence + " -> returns false";
            case RETURNS_NULL -> "ARETURN #" + occurrence + " -> returns null";
            case RETURNS_ZERO -> anchor + " #" + occurrence + " -> returns 0";
            case CALL_REMOVED -> "call to " + anchor + " #" + occurrence + " removed";
            case INCREMENT_NEGATED -> "IINC #" + occurrence + " -> negated";
        };
        return target.getSimpleName() + "." + method + ": " + site;
    }

    /**
     * The class file {@code original} of {@link #target()} with this mutation applied and its
     * names unchanged: for loaders that define the mutant in place of the real class (the
     * simulator's guest loader, which is never shared with unmodified runs).
     *
     * @throws IllegalStateException if the method or the site is not there
     */
    public byte[] applyTo(byte[] original) {
        ClassNode node = new ClassNode();
        new ClassReader(original).accept(node, ClassReader.SKIP_FRAMES);
        List<MethodNode> methods = node.methods.stream().filter(this::matches).toList();
        if (methods.size() != 1) {
            throw new IllegalStateException(this + ": " + methods.size() + " methods match " + method);
        }
        apply(methods.getFirst());
        ClassWriter writer = new ClassWriter(ClassWriter.COMPUTE_FRAMES) {
            @Override
            protected ClassLoader getClassLoader() {
                return target.getClassLoader();
            }
        };
        node.accept(writer);
        return writer.toByteArray();
    }

    boolean matches(MethodNode node) {
        int paren = method.indexOf('(');
        return paren < 0 ? node.name.equals(method) : (node.name + node.desc).equals(method);
    }

    /** Changes the site in {@code node}; fails if the method has no such site. */
    void apply(MethodNode node) {
        List<AbstractInsnNode> sites = sites(node);
        if (occurrence >= sites.size()) {
            throw new IllegalStateException(this + ": the method has " + sites.size() + " such sites");
        }
        AbstractInsnNode site = sites.get(occurrence);
        switch (kind) {
            case CAS_TO_PLAIN_SET -> replaceCas(node, (MethodInsnNode) site);
            case BRANCH_NEVER_TAKEN -> dropBranch(node, (JumpInsnNode) site, false);
            case BRANCH_ALWAYS_TAKEN -> dropBranch(node, (JumpInsnNode) site, true);
            case OPCODE_REPLACED -> {
                int to = opcodeOf(anchor.split(">")[1]);
                if (site instanceof JumpInsnNode jump) {
                    node.instructions.set(site, new JumpInsnNode(to, jump.label));
                } else {
                    node.instructions.set(site, new InsnNode(to));
                }
            }
            case RETURNS_NULL -> {
                InsnList replacement = new InsnList();
                replacement.add(new InsnNode(Opcodes.POP));
                replacement.add(new InsnNode(Opcodes.ACONST_NULL));
                node.instructions.insertBefore(site, replacement);
            }
            case RETURNS_ZERO -> {
                boolean wide = site.getOpcode() == Opcodes.LRETURN;
                InsnList replacement = new InsnList();
                replacement.add(new InsnNode(wide ? Opcodes.POP2 : Opcodes.POP));
                replacement.add(new InsnNode(wide ? Opcodes.LCONST_0 : Opcodes.ICONST_0));
                node.instructions.insertBefore(site, replacement);
            }
            case CALL_REMOVED -> {
                MethodInsnNode call = (MethodInsnNode) site;
                if (Type.getReturnType(call.desc).getSort() != Type.VOID) {
                    throw new IllegalStateException(this + ": not a call to a void method");
                }
                InsnList replacement = new InsnList();
                Type[] arguments = Type.getArgumentTypes(call.desc);
                for (int i = arguments.length - 1; i >= 0; i--) {
                    replacement.add(new InsnNode(arguments[i].getSize() == 2 ? Opcodes.POP2 : Opcodes.POP));
                }
                if (call.getOpcode() != Opcodes.INVOKESTATIC) {
                    replacement.add(new InsnNode(Opcodes.POP)); // the receiver
                }
                node.instructions.insert(call, replacement);
                node.instructions.remove(call);
            }
            case RETURNS_TRUE, RETURNS_FALSE -> {
                if (!Type.getReturnType(node.desc).equals(Type.BOOLEAN_TYPE)) {
                    throw new IllegalStateException(this + ": the method does not return a boolean");
                }
                InsnList replacement = new InsnList();
                replacement.add(new InsnNode(Opcodes.POP));
                replacement.add(new InsnNode(kind == Kind.RETURNS_TRUE ? Opcodes.ICONST_1 : Opcodes.ICONST_0));
                node.instructions.insertBefore(site, replacement);
            }
            case INCREMENT_NEGATED -> ((IincInsnNode) site).incr = -((IincInsnNode) site).incr;
            default -> throw new AssertionError(kind);
        }
    }

    /** The instructions of {@code node} this mutation's kind and anchor can change, in order. */
    List<AbstractInsnNode> sites(MethodNode node) {
        List<AbstractInsnNode> sites = new ArrayList<>();
        String lastVarHandle = null;
        boolean branch = kind == Kind.BRANCH_NEVER_TAKEN || kind == Kind.BRANCH_ALWAYS_TAKEN;
        int opcode = switch (kind) {
            case CAS_TO_PLAIN_SET, CALL_REMOVED -> -1;
            case OPCODE_REPLACED -> opcodeOf(anchor.split(">")[0]);
            default -> opcodeOf(anchor);
        };
        for (AbstractInsnNode insn : node.instructions) {
            if (insn instanceof FieldInsnNode field && field.getOpcode() == Opcodes.GETSTATIC
                    && field.desc.equals("Ljava/lang/invoke/VarHandle;")) {
                lastVarHandle = field.name;
            } else if (kind == Kind.CAS_TO_PLAIN_SET && insn instanceof MethodInsnNode call
                    && call.owner.equals("java/lang/invoke/VarHandle") && call.name.equals("compareAndSet")
                    && anchor.equals(lastVarHandle)) {
                sites.add(call);
            } else if (branch && insn instanceof JumpInsnNode && insn.getOpcode() == opcode) {
                sites.add(insn);
            } else if (kind == Kind.CALL_REMOVED && insn instanceof MethodInsnNode call && call.name.equals(anchor)) {
                sites.add(insn);
            } else if (!branch && opcode >= 0
                    && (insn instanceof InsnNode || insn instanceof JumpInsnNode || insn instanceof IincInsnNode)
                    && insn.getOpcode() == opcode) {
                sites.add(insn);
            }
        }
        return sites;
    }

    private static int opcodeOf(String name) {
        try {
            return Opcodes.class.getField(name).getInt(null);
        } catch (ReflectiveOperationException e) {
            throw new IllegalArgumentException("no opcode named " + name, e);
        }
    }

    /** [handle, coordinates…, expected, new]: store new, pop expected, set(handle, coordinates…, new), true. */
    private static void replaceCas(MethodNode node, MethodInsnNode cas) {
        Type[] arguments = Type.getArgumentTypes(cas.desc);
        Type value = arguments[arguments.length - 1];
        int temp = node.maxLocals;
        node.maxLocals += value.getSize();
        StringBuilder setDesc = new StringBuilder("(");
        for (int i = 0; i < arguments.length - 2; i++) {
            setDesc.append(arguments[i].getDescriptor());
        }
        setDesc.append(value.getDescriptor()).append(")V");
        InsnList replacement = new InsnList();
        replacement.add(new VarInsnNode(value.getOpcode(Opcodes.ISTORE), temp));
        replacement.add(new InsnNode(value.getSize() == 2 ? Opcodes.POP2 : Opcodes.POP));
        replacement.add(new VarInsnNode(value.getOpcode(Opcodes.ILOAD), temp));
        replacement.add(new MethodInsnNode(Opcodes.INVOKEVIRTUAL, cas.owner, "set", setDesc.toString(), false));
        replacement.add(new InsnNode(Opcodes.ICONST_1));
        node.instructions.insert(cas, replacement);
        node.instructions.remove(cas);
    }

    /** A conditional jump becomes pops of what it compared, then falls through or jumps. */
    private static void dropBranch(MethodNode node, JumpInsnNode jump, boolean taken) {
        int opcode = jump.getOpcode();
        if (opcode == Opcodes.GOTO || opcode == Opcodes.JSR) {
            throw new IllegalArgumentException("not a conditional jump: " + opcode);
        }
        boolean twoOperands = opcode >= Opcodes.IF_ICMPEQ && opcode <= Opcodes.IF_ACMPNE;
        InsnList replacement = new InsnList();
        replacement.add(new InsnNode(twoOperands ? Opcodes.POP2 : Opcodes.POP));
        if (taken) {
            replacement.add(new JumpInsnNode(Opcodes.GOTO, jump.label));
        }
        node.instructions.insert(jump, replacement);
        node.instructions.remove(jump);
    }
}
