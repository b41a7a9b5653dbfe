package io.spinlab.sim.memory;

import org.objectweb.asm.ClassReader;
import org.objectweb.asm.ClassVisitor;
import org.objectweb.asm.ClassWriter;
import org.objectweb.asm.Handle;
import org.objectweb.asm.Label;
import org.objectweb.asm.MethodVisitor;
import org.objectweb.asm.Opcodes;
import org.objectweb.asm.Type;
import org.objectweb.asm.tree.AbstractInsnNode;
import org.objectweb.asm.tree.JumpInsnNode;
import org.objectweb.asm.tree.LabelNode;
import org.objectweb.asm.tree.LookupSwitchInsnNode;
import org.objectweb.asm.tree.MethodNode;
import org.objectweb.asm.tree.TableSwitchInsnNode;
import org.objectweb.asm.tree.TryCatchBlockNode;

import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * Rewrites one class file so that the simulator sees its shared-memory traffic and its
 * waiting, without changing what the code does:
 *
 * <ul>
 *   <li>every {@code getfield}/{@code putfield}/{@code getstatic}/{@code putstatic} of a
 *       {@code volatile} field first calls {@code GuestHooks.access(target, offset, kind)}
 *       (target: the object, or the declaring class for a static), then performs the access;</li>
 *   <li>every call of a {@code VarHandle} access mode (get/set in every mode, compareAndSet,
 *       compareAndExchange*, weakCompareAndSet*, getAndSet*, getAndAdd*, getAndBitwise*) is
 *       routed through a private synthetic helper in the same class, one per mode and call
 *       descriptor, that calls {@code GuestHooks.varHandle(handle, receiver, index, kind)} and
 *       then invokes the same mode with the same descriptor;</li>
 *   <li>{@code Lookup.findVarHandle}, {@code findStaticVarHandle} and {@code unreflectVarHandle}
 *       go through {@code GuestHooks}, which records which field each handle accesses;</li>
 *   <li>{@code Thread.onSpinWait}, {@code Thread.yield}, {@code Thread.sleep},
 *       {@code LockSupport.park*}/{@code unpark}, {@code System.nanoTime},
 *       {@code System.currentTimeMillis} and {@code VarHandle.fullFence} become the
 *       {@code GuestHooks} methods of the same shape, which go to the simulated platform
 *       when called from a simulated thread and to the JDK otherwise;</li>
 *   <li>a static initializer calls {@code GuestHooks.enterInitializer()} first and
 *       {@code exitInitializer()} before it returns or throws: inside it no hook is a
 *       scheduling point (a park there would pin the engine's own thread);</li>
 *   <li>the instruction clock: each basic block reports how many of the method's own
 *       instructions it executed, {@code GuestHooks.instructions(n)}, before it leaves the
 *       block (a jump, switch, return or throw, the fall-through into a jump target) and
 *       before every call, so the count is complete at each scheduling point;</li>
 *   <li>the instruction clock's stores: {@code newarray} and {@code anewarray} first report the
 *       bytes the new array zeroes, {@code GuestHooks.allocateArray(length, elementBytes)}
 *       (references count 8 bytes), and {@code System.arraycopy} becomes
 *       {@code GuestHooks.arraycopy}, which reports the bytes it copies; {@code multianewarray},
 *       plain objects and the JDK's own copies ({@code Arrays.copyOf}) are not charged by size;</li>
 *   <li>the body of an {@code assert} statement (the code that runs only when
 *       {@code $assertionsDisabled} is false) is left exactly as written: no hook, no count,
 *       so a run is the same with assertions enabled or disabled.</li>
 * </ul>
 *
 * <p>Kinds are {@link AccessKind} ordinals; offsets come from {@link FieldLayouts}.
 */
final class AccessInstrumenter {
    /*
     * Implementation notes
     *
     * Stack discipline: every inserted sequence is stack-neutral and branch-free, so the
     * class's stack map frames stay valid and the writer only recomputes max stack
     * (COMPUTE_MAXS); nothing here needs COMPUTE_FRAMES, which would have to load classes to
     * find common superclasses while this loader is defining them.
     *   getfield:           dup; ldc offset; ldc kind; invokestatic access
     *   putfield (1 slot):  dup2; pop; ...          [obj val] -> [obj val obj]
     *   putfield (2 slots): dup2_x1; pop2; dup_x2; ...  [obj v v] -> [obj v v obj]
     *   get/putstatic:      ldc DeclaringClass; ...
     *
     * VarHandle calls are signature-polymorphic, so no single hook method can take their
     * arguments. A helper per (mode, descriptor) receives them as ordinary parameters, calls
     * the hook with the handle and the coordinates, and re-invokes the mode with the very
     * descriptor of the call site, so exact-invocation semantics and boxing are unchanged.
     * Coordinates are the parameters before the mode's values: none (static field), one
     * reference (instance field), or a reference and an int (array element, or a byte offset
     * into a byte[] view). A call site whose descriptor fits none of these is left alone.
     * The helper of a store without a fence (set, setOpaque, setRelease) calls
     * GuestHooks.stored with the same coordinates after the store, so that the engine can keep
     * a store that waits in the store buffer out of other threads' sight until it commits.
     *
     * Static initializers: exitInitializer runs before every return and athrow. An exception
     * thrown and caught inside the same initializer therefore ends the hook-free section early
     * (the depth never goes below 0); javac's initializers only throw to leave.
     *
     * Instruction clock: each method is first read whole (a MethodNode) to learn its block
     * starts: jump and switch targets and exception handlers. Counting then streams: every
     * original instruction adds one to a pending count, which is flushed (push n; invokestatic
     * instructions) before an instruction that leaves the block or calls out, and before a
     * block start reached by falling through. A flush is stack-neutral and branch-free like
     * every other insertion. The count of a block whose instruction throws is lost up to that
     * instruction: an exception is not a path the heuristics take, and the loss is the same on
     * every run. Inserted instructions are never counted.
     *
     * Asserts: javac compiles `assert c` as `getstatic $assertionsDisabled; ifne END; <c and the
     * throw>; END:`. After exactly that pair the visitor is "inside an assert" until END: the
     * getstatic and the ifne are counted (they run either way), nothing inside is.
     *
     * Static fields are keyed by their declaring class; when that class is in another package
     * than the instruction's owner it may not be accessible, and the owner stands in for it.
     */

    static final String HOOKS = "io/spinlab/sim/engine/GuestHooks";
    private static final String VAR_HANDLE = "java/lang/invoke/VarHandle";
    private static final String LOOKUP = "java/lang/invoke/MethodHandles$Lookup";
    private static final String ACCESS_DESC = "(Ljava/lang/Object;II)V";
    private static final String VAR_HANDLE_HOOK_DESC = "(Ljava/lang/invoke/VarHandle;Ljava/lang/Object;II)V";
    private static final String STORED_HOOK_DESC = "(Ljava/lang/invoke/VarHandle;Ljava/lang/Object;I)V";
    private static final String HELPER_PREFIX = "spinlab$vh$";
    private static final String ARRAYCOPY = "java/lang/System.arraycopy (Ljava/lang/Object;ILjava/lang/Object;II)V";
    /** An array element that holds a reference, on the 64-bit runtimes the profiles model. */
    private static final int REFERENCE_BYTES = 8;

    /** VarHandle access modes: kind and number of value parameters after the coordinates. */
    private static final Map<String, Mode> MODES = modes();
    /** JDK calls replaced by GuestHooks methods of the same descriptor: "owner.name desc" -> hook name. */
    private static final Map<String, String> REPLACED = replaced();

    private AccessInstrumenter() {
    }

    /** What {@link #instrument} produced: the new class file and how many sites it rewrote. */
    record Result(byte[] bytes, int fieldAccesses, int varHandleAccesses, int platformCalls) {
        int sites() {
            return fieldAccesses + varHandleAccesses + platformCalls;
        }
    }

    /** Instruments {@code classFile}; field offsets and volatility come from {@code layouts}. */
    static Result instrument(byte[] classFile, FieldLayouts layouts) {
        Objects.requireNonNull(layouts, "layouts");
        ClassReader reader = new ClassReader(classFile);
        ClassWriter writer = new ClassWriter(reader, ClassWriter.COMPUTE_MAXS);
        GuestClassVisitor visitor = new GuestClassVisitor(writer, layouts);
        reader.accept(visitor, 0);
        return new Result(writer.toByteArray(), visitor.fieldAccesses, visitor.varHandleAccesses,
                visitor.platformCalls);
    }

    private record Mode(int kind, int values) {
    }

    private static Map<String, Mode> modes() {
        Map<String, Mode> m = new LinkedHashMap<>();
        int read = AccessKind.READ.ordinal();
        int write = AccessKind.WRITE.ordinal();
        int rmw = AccessKind.READ_MODIFY_WRITE.ordinal();
        for (String name : List.of("get", "getVolatile", "getOpaque", "getAcquire")) {
            m.put(name, new Mode(read, 0));
        }
        for (String name : List.of("set", "setOpaque", "setRelease")) {
            m.put(name, new Mode(write, 1));
        }
        m.put("setVolatile", new Mode(AccessKind.VOLATILE_WRITE.ordinal(), 1));
        for (String name : List.of("compareAndSet", "compareAndExchange", "compareAndExchangeAcquire",
                "compareAndExchangeRelease", "weakCompareAndSet", "weakCompareAndSetPlain",
                "weakCompareAndSetAcquire", "weakCompareAndSetRelease")) {
            m.put(name, new Mode(rmw, 2));
        }
        for (String op : List.of("getAndSet", "getAndAdd", "getAndBitwiseOr", "getAndBitwiseAnd",
                "getAndBitwiseXor")) {
            for (String suffix : List.of("", "Acquire", "Release")) {
                m.put(op + suffix, new Mode(rmw, 1));
            }
        }
        return Map.copyOf(m);
    }

    private static Map<String, String> replaced() {
        Map<String, String> m = new LinkedHashMap<>();
        m.put("java/lang/Thread.onSpinWait ()V", "onSpinWait");
        m.put("java/lang/Thread.yield ()V", "yieldThread");
        m.put("java/lang/Thread.sleep (J)V", "sleep");
        m.put("java/lang/Thread.sleep (JI)V", "sleep");
        m.put("java/lang/Thread.sleep (Ljava/time/Duration;)V", "sleep");
        String lockSupport = "java/util/concurrent/locks/LockSupport.";
        m.put(lockSupport + "park ()V", "park");
        m.put(lockSupport + "park (Ljava/lang/Object;)V", "park");
        m.put(lockSupport + "parkNanos (J)V", "parkNanos");
        m.put(lockSupport + "parkNanos (Ljava/lang/Object;J)V", "parkNanos");
        m.put(lockSupport + "parkUntil (J)V", "parkUntil");
        m.put(lockSupport + "parkUntil (Ljava/lang/Object;J)V", "parkUntil");
        m.put(lockSupport + "unpark (Ljava/lang/Thread;)V", "unpark");
        m.put("java/lang/System.nanoTime ()J", "nanoTime");
        m.put("java/lang/System.currentTimeMillis ()J", "currentTimeMillis");
        m.put(VAR_HANDLE + ".fullFence ()V", "fullFence");
        return Map.copyOf(m);
    }

    /** Rewrites methods and adds the VarHandle helpers at the end. */
    private static final class GuestClassVisitor extends ClassVisitor {
        private final FieldLayouts layouts;
        private final Map<String, Helper> helpers = new LinkedHashMap<>();
        private String className;
        private boolean isInterface;
        int fieldAccesses;
        int varHandleAccesses;
        int platformCalls;
        long countedInstructions;

        GuestClassVisitor(ClassVisitor next, FieldLayouts layouts) {
            super(Opcodes.ASM9, next);
            this.layouts = layouts;
        }

        @Override
        public void visit(int version, int access, String name, String signature, String superName,
                String[] interfaces) {
            this.className = name;
            this.isInterface = (access & Opcodes.ACC_INTERFACE) != 0;
            super.visit(version, access, name, signature, superName, interfaces);
        }

        @Override
        public MethodVisitor visitMethod(int access, String name, String descriptor, String signature,
                String[] exceptions) {
            MethodVisitor writer = super.visitMethod(access, name, descriptor, signature, exceptions);
            if (writer == null || (access & (Opcodes.ACC_ABSTRACT | Opcodes.ACC_NATIVE)) != 0) {
                return writer;
            }
            GuestClassVisitor owner = this;
            boolean initializer = "<clinit>".equals(name);
            return new MethodNode(Opcodes.ASM9, access, name, descriptor, signature, exceptions) {
                @Override
                public void visitEnd() {
                    accept(new GuestMethodVisitor(writer, owner, initializer, blockStarts(this)));
                }
            };
        }

        /** The labels a block starts at other than by falling through: jump and switch targets, handlers. */
        private static Set<Label> blockStarts(MethodNode method) {
            Set<Label> starts = new HashSet<>();
            for (AbstractInsnNode insn : method.instructions) {
                if (insn instanceof JumpInsnNode jump) {
                    starts.add(jump.label.getLabel());
                } else if (insn instanceof TableSwitchInsnNode table) {
                    starts.add(table.dflt.getLabel());
                    table.labels.forEach(l -> starts.add(l.getLabel()));
                } else if (insn instanceof LookupSwitchInsnNode lookup) {
                    starts.add(lookup.dflt.getLabel());
                    lookup.labels.forEach(l -> starts.add(l.getLabel()));
                }
            }
            for (TryCatchBlockNode handler : method.tryCatchBlocks) {
                starts.add(handler.handler.getLabel());
            }
            return starts;
        }

        /** The helper for VarHandle mode {@code name} called with {@code descriptor}, or null if it does not fit. */
        String helperFor(String name, String descriptor) {
            Mode mode = MODES.get(name);
            if (mode == null) {
                return null;
            }
            String key = name + descriptor;
            Helper helper = helpers.get(key);
            if (helper == null) {
                Type[] params = Type.getArgumentTypes(descriptor);
                int coordinates = params.length - mode.values();
                if (!fits(params, coordinates)) {
                    return null;
                }
                helper = new Helper(HELPER_PREFIX + helpers.size(), name, descriptor, mode, coordinates);
                helpers.put(key, helper);
            }
            return helper.methodName;
        }

        private static boolean fits(Type[] params, int coordinates) {
            return switch (coordinates) {
                case 0 -> true;
                case 1 -> isReference(params[0]);
                case 2 -> isReference(params[0]) && params[1].getSort() == Type.INT;
                default -> false;
            };
        }

        private static boolean isReference(Type t) {
            return t.getSort() == Type.OBJECT || t.getSort() == Type.ARRAY;
        }

        @Override
        public void visitEnd() {
            for (Helper helper : helpers.values()) {
                writeHelper(helper);
            }
            super.visitEnd();
        }

        private void writeHelper(Helper h) {
            String desc = "(L" + VAR_HANDLE + ";" + h.descriptor.substring(1);
            MethodVisitor mv = super.visitMethod(Opcodes.ACC_PRIVATE | Opcodes.ACC_STATIC | Opcodes.ACC_SYNTHETIC,
                    h.methodName, desc, null, null);
            mv.visitCode();
            mv.visitVarInsn(Opcodes.ALOAD, 0);
            pushCoordinates(mv, h.coordinates);
            pushInt(mv, h.mode.kind());
            mv.visitMethodInsn(Opcodes.INVOKESTATIC, HOOKS, "varHandle", VAR_HANDLE_HOOK_DESC, false);
            mv.visitVarInsn(Opcodes.ALOAD, 0);
            int slot = 1;
            for (Type param : Type.getArgumentTypes(h.descriptor)) {
                mv.visitVarInsn(param.getOpcode(Opcodes.ILOAD), slot);
                slot += param.getSize();
            }
            mv.visitMethodInsn(Opcodes.INVOKEVIRTUAL, VAR_HANDLE, h.name, h.descriptor, false);
            if (h.mode.kind() == AccessKind.WRITE.ordinal()) {
                // a store without a fence: the engine learns its new value (see GuestHooks.stored)
                mv.visitVarInsn(Opcodes.ALOAD, 0);
                pushCoordinates(mv, h.coordinates);
                mv.visitMethodInsn(Opcodes.INVOKESTATIC, HOOKS, "stored", STORED_HOOK_DESC, false);
            }
            mv.visitInsn(Type.getReturnType(h.descriptor).getOpcode(Opcodes.IRETURN));
            mv.visitMaxs(0, 0);
            mv.visitEnd();
        }

        /** The hooks' (receiver, index) for a helper with {@code coordinates}: (null, −1), (receiver, −1) or both. */
        private static void pushCoordinates(MethodVisitor mv, int coordinates) {
            switch (coordinates) {
                case 0 -> {
                    mv.visitInsn(Opcodes.ACONST_NULL);
                    mv.visitInsn(Opcodes.ICONST_M1);
                }
                case 1 -> {
                    mv.visitVarInsn(Opcodes.ALOAD, 1);
                    mv.visitInsn(Opcodes.ICONST_M1);
                }
                default -> {
                    mv.visitVarInsn(Opcodes.ALOAD, 1);
                    mv.visitVarInsn(Opcodes.ILOAD, 2);
                }
            }
        }

        private record Helper(String methodName, String name, String descriptor, Mode mode, int coordinates) {
        }
    }

    /** Inserts the hooks into one method. */
    private static final class GuestMethodVisitor extends MethodVisitor {
        private static final String ASSERTIONS_DISABLED = "$assertionsDisabled";

        private final GuestClassVisitor owner;
        private final boolean initializer;
        private final Set<Label> blockStarts;
        /** Original instructions since the last flush. */
        private int pending;
        /** The previous instruction was {@code getstatic $assertionsDisabled}. */
        private boolean afterAssertionCheck;
        /** The end of the assert body being visited, or null outside one. */
        private Label assertEnd;

        GuestMethodVisitor(MethodVisitor next, GuestClassVisitor owner, boolean initializer, Set<Label> blockStarts) {
            super(Opcodes.ASM9, next);
            this.owner = owner;
            this.initializer = initializer;
            this.blockStarts = blockStarts;
        }

        /** Counts one original instruction (none inside an assert body). */
        private void count() {
            afterAssertionCheck = false;
            if (assertEnd == null) {
                pending++;
                owner.countedInstructions++;
            }
        }

        /** Reports the pending count, if any, to the instruction clock. */
        private void flush() {
            if (pending > 0) {
                pushInt(mv, pending);
                super.visitMethodInsn(Opcodes.INVOKESTATIC, HOOKS, "instructions", "(I)V", false);
                pending = 0;
            }
        }

        private boolean inAssert() {
            return assertEnd != null;
        }

        @Override
        public void visitCode() {
            super.visitCode();
            if (initializer) {
                super.visitMethodInsn(Opcodes.INVOKESTATIC, HOOKS, "enterInitializer", "()V", false);
            }
        }

        @Override
        public void visitLabel(Label label) {
            if (label == assertEnd) {
                assertEnd = null;
            }
            if (blockStarts.contains(label)) {
                flush();
            }
            afterAssertionCheck = false;
            super.visitLabel(label);
        }

        @Override
        public void visitInsn(int opcode) {
            count();
            boolean leaves = (opcode >= Opcodes.IRETURN && opcode <= Opcodes.RETURN) || opcode == Opcodes.ATHROW;
            if (leaves) {
                flush();
            }
            if (initializer && leaves) {
                super.visitMethodInsn(Opcodes.INVOKESTATIC, HOOKS, "exitInitializer", "()V", false);
            }
            super.visitInsn(opcode);
        }

        @Override
        public void visitIntInsn(int opcode, int operand) {
            count();
            if (opcode == Opcodes.NEWARRAY && !inAssert()) {
                chargeArray(primitiveBytes(operand));
            }
            super.visitIntInsn(opcode, operand);
        }

        /** Before an array allocation, whose length is on the stack: {@code dup; push size; allocateArray}. */
        private void chargeArray(int elementBytes) {
            super.visitInsn(Opcodes.DUP);
            pushInt(mv, elementBytes);
            super.visitMethodInsn(Opcodes.INVOKESTATIC, HOOKS, "allocateArray", "(II)V", false);
        }

        /** Bytes of one element of a {@code newarray} of {@code type} ({@code T_BOOLEAN} … {@code T_LONG}). */
        private static int primitiveBytes(int type) {
            return switch (type) {
                case Opcodes.T_BOOLEAN, Opcodes.T_BYTE -> 1;
                case Opcodes.T_CHAR, Opcodes.T_SHORT -> 2;
                case Opcodes.T_INT, Opcodes.T_FLOAT -> 4;
                default -> 8;
            };
        }

        @Override
        public void visitVarInsn(int opcode, int varIndex) {
            count();
            if (opcode == Opcodes.RET) {
                flush();
            }
            super.visitVarInsn(opcode, varIndex);
        }

        @Override
        public void visitTypeInsn(int opcode, String type) {
            count();
            if (opcode == Opcodes.ANEWARRAY && !inAssert()) {
                chargeArray(REFERENCE_BYTES);
            }
            super.visitTypeInsn(opcode, type);
        }

        @Override
        public void visitLdcInsn(Object value) {
            count();
            super.visitLdcInsn(value);
        }

        @Override
        public void visitIincInsn(int varIndex, int increment) {
            count();
            super.visitIincInsn(varIndex, increment);
        }

        @Override
        public void visitMultiANewArrayInsn(String descriptor, int numDimensions) {
            count();
            super.visitMultiANewArrayInsn(descriptor, numDimensions);
        }

        @Override
        public void visitJumpInsn(int opcode, Label label) {
            boolean assertion = afterAssertionCheck && opcode == Opcodes.IFNE && !inAssert();
            count();
            flush();
            super.visitJumpInsn(opcode, label);
            if (assertion) {
                assertEnd = label;
            }
        }

        @Override
        public void visitTableSwitchInsn(int min, int max, Label dflt, Label... labels) {
            count();
            flush();
            super.visitTableSwitchInsn(min, max, dflt, labels);
        }

        @Override
        public void visitLookupSwitchInsn(Label dflt, int[] keys, Label[] labels) {
            count();
            flush();
            super.visitLookupSwitchInsn(dflt, keys, labels);
        }

        @Override
        public void visitInvokeDynamicInsn(String name, String descriptor, Handle bootstrap, Object... arguments) {
            count();
            flush();
            super.visitInvokeDynamicInsn(name, descriptor, bootstrap, arguments);
        }

        @Override
        public void visitFieldInsn(int opcode, String fieldOwner, String name, String descriptor) {
            count();
            if (inAssert()) {
                super.visitFieldInsn(opcode, fieldOwner, name, descriptor);
                return;
            }
            boolean isStatic = opcode == Opcodes.GETSTATIC || opcode == Opcodes.PUTSTATIC;
            if (opcode == Opcodes.GETSTATIC && ASSERTIONS_DISABLED.equals(name) && "Z".equals(descriptor)) {
                super.visitFieldInsn(opcode, fieldOwner, name, descriptor);
                afterAssertionCheck = true;
                return;
            }
            FieldSlot slot = owner.layouts.resolve(fieldOwner, name, isStatic);
            if (slot != null && slot.isVolatile()) {
                flush();
                boolean read = opcode == Opcodes.GETFIELD || opcode == Opcodes.GETSTATIC;
                switch (opcode) {
                    case Opcodes.GETFIELD -> super.visitInsn(Opcodes.DUP);
                    case Opcodes.PUTFIELD -> {
                        if (Type.getType(descriptor).getSize() == 2) {
                            super.visitInsn(Opcodes.DUP2_X1);
                            super.visitInsn(Opcodes.POP2);
                            super.visitInsn(Opcodes.DUP_X2);
                        } else {
                            super.visitInsn(Opcodes.DUP2);
                            super.visitInsn(Opcodes.POP);
                        }
                    }
                    default -> super.visitLdcInsn(Type.getObjectType(staticKey(fieldOwner, slot)));
                }
                pushInt(mv, slot.offset());
                pushInt(mv, (read ? AccessKind.READ : AccessKind.VOLATILE_WRITE).ordinal());
                super.visitMethodInsn(Opcodes.INVOKESTATIC, HOOKS, "access", ACCESS_DESC, false);
                owner.fieldAccesses++;
            }
            super.visitFieldInsn(opcode, fieldOwner, name, descriptor);
        }

        private static String staticKey(String fieldOwner, FieldSlot slot) {
            String declaring = slot.declaringClass();
            return packageOf(declaring).equals(packageOf(fieldOwner)) ? declaring : fieldOwner;
        }

        private static String packageOf(String internalName) {
            int slash = internalName.lastIndexOf('/');
            return slash < 0 ? "" : internalName.substring(0, slash);
        }

        @Override
        public void visitMethodInsn(int opcode, String callOwner, String name, String descriptor,
                boolean isInterface) {
            count();
            if (inAssert()) {
                super.visitMethodInsn(opcode, callOwner, name, descriptor, isInterface);
                return;
            }
            flush();
            if (opcode == Opcodes.INVOKEVIRTUAL && VAR_HANDLE.equals(callOwner)) {
                String helper = owner.helperFor(name, descriptor);
                if (helper != null) {
                    super.visitMethodInsn(Opcodes.INVOKESTATIC, owner.className, helper,
                            "(L" + VAR_HANDLE + ";" + descriptor.substring(1), owner.isInterface);
                    owner.varHandleAccesses++;
                    return;
                }
            }
            if (opcode == Opcodes.INVOKEVIRTUAL && LOOKUP.equals(callOwner) && (name.equals("findVarHandle")
                    || name.equals("findStaticVarHandle") || name.equals("unreflectVarHandle"))) {
                super.visitMethodInsn(Opcodes.INVOKESTATIC, HOOKS, name, "(L" + LOOKUP + ";" + descriptor.substring(1),
                        false);
                return;
            }
            if (opcode == Opcodes.INVOKESTATIC && ARRAYCOPY.equals(callOwner + "." + name + " " + descriptor)) {
                super.visitMethodInsn(Opcodes.INVOKESTATIC, HOOKS, "arraycopy", descriptor, false);
                return;
            }
            if (opcode == Opcodes.INVOKESTATIC) {
                String hook = REPLACED.get(callOwner + "." + name + " " + descriptor);
                if (hook != null) {
                    super.visitMethodInsn(Opcodes.INVOKESTATIC, HOOKS, hook, descriptor, false);
                    owner.platformCalls++;
                    return;
                }
            }
            super.visitMethodInsn(opcode, callOwner, name, descriptor, isInterface);
        }
    }

    private static void pushInt(MethodVisitor mv, int value) {
        if (value >= -1 && value <= 5) {
            mv.visitInsn(Opcodes.ICONST_0 + value);
        } else if (value >= Byte.MIN_VALUE && value <= Byte.MAX_VALUE) {
            mv.visitIntInsn(Opcodes.BIPUSH, value);
        } else if (value >= Short.MIN_VALUE && value <= Short.MAX_VALUE) {
            mv.visitIntInsn(Opcodes.SIPUSH, value);
        } else {
            mv.visitLdcInsn(value);
        }
    }
}
