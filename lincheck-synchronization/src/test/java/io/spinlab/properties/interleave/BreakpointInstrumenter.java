package io.spinlab.properties.interleave;

import org.objectweb.asm.ClassReader;
import org.objectweb.asm.ClassVisitor;
import org.objectweb.asm.ClassWriter;
import org.objectweb.asm.FieldVisitor;
import org.objectweb.asm.MethodVisitor;
import org.objectweb.asm.Opcodes;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;

/**
 * Rewrites a class so that each of its shared-memory accesses first calls
 * {@link Interleaving#reach(String)} with the access's site: every {@code getfield}, {@code putfield},
 * {@code getstatic} and {@code putstatic} of a {@code volatile} field, and every call of a
 * {@code VarHandle} access mode (get, set, compareAndSet, getAndAdd, ...). A site reads
 * {@code Class.method:field}, e.g. {@code BargingAwareLock.abandonWait:state} for the volatile read of
 * {@code state} there, or {@code BargingAwareLock.release:STATE} for an access through the
 * {@code STATE} handle. Calls of {@code Thread.interrupted}, {@code isInterrupted} and
 * {@code interrupt} are sites too (a thread's interrupt status is state other threads write), named
 * after the method: {@code PoolWorker.runItem:interrupted}. An interleaving script stops a thread
 * just before such an access.
 *
 * <p>The inserted call pushes one constant and pops it: stack-neutral and branch-free, so the class's
 * stack map frames stay valid and only the maximum stack is recomputed.
 */
final class BreakpointInstrumenter {
    private static final String HOOK_OWNER = Type.internalName(Interleaving.class);
    private static final String VAR_HANDLE = "java/lang/invoke/VarHandle";
    private static final String VAR_HANDLE_DESC = "L" + VAR_HANDLE + ";";
    private static final Set<String> ACCESS_MODES = Set.of("get", "set", "getVolatile", "setVolatile",
            "getAcquire", "setRelease", "getOpaque", "setOpaque", "compareAndSet", "compareAndExchange",
            "compareAndExchangeAcquire", "compareAndExchangeRelease", "weakCompareAndSet", "weakCompareAndSetPlain",
            "weakCompareAndSetAcquire", "weakCompareAndSetRelease", "getAndSet", "getAndSetAcquire",
            "getAndSetRelease", "getAndAdd", "getAndAddAcquire", "getAndAddRelease", "getAndBitwiseOr",
            "getAndBitwiseOrAcquire", "getAndBitwiseOrRelease", "getAndBitwiseAnd", "getAndBitwiseAndAcquire",
            "getAndBitwiseAndRelease", "getAndBitwiseXor", "getAndBitwiseXorAcquire", "getAndBitwiseXorRelease");

    /** Thread methods that read or write a thread's interrupt status, which other threads share. */
    private static final Set<String> INTERRUPT_STATUS = Set.of("interrupted", "isInterrupted", "interrupt");

    private final ClassLoader loader;
    private final String instrumentedPrefix;
    private final Map<String, Set<String>> volatileFields = new HashMap<>();

    /**
     * @param loader where the class files of the fields' owners are read
     * @param instrumentedPrefix the internal-name prefix of the classes whose volatile fields count
     *        (e.g. {@code io/spinlab/impl/}); fields of other classes (the JDK's) are not hooked
     */
    BreakpointInstrumenter(ClassLoader loader, String instrumentedPrefix) {
        this.loader = loader;
        this.instrumentedPrefix = instrumentedPrefix;
    }

    /** {@code original} with a hook before each shared-memory access. */
    byte[] instrument(byte[] original) {
        ClassReader reader = new ClassReader(original);
        ClassWriter writer = new ClassWriter(reader, ClassWriter.COMPUTE_MAXS);
        String simpleName = reader.getClassName().substring(reader.getClassName().lastIndexOf('/') + 1);
        reader.accept(new ClassVisitor(Opcodes.ASM9, writer) {
            @Override
            public MethodVisitor visitMethod(int access, String name, String descriptor, String signature,
                    String[] exceptions) {
                MethodVisitor next = super.visitMethod(access, name, descriptor, signature, exceptions);
                return new Hooks(next, simpleName + "." + name + ":");
            }
        }, 0);
        return writer.toByteArray();
    }

    private final class Hooks extends MethodVisitor {
        private final String sitePrefix;
        private String lastHandle = "?";

        Hooks(MethodVisitor next, String sitePrefix) {
            super(Opcodes.ASM9, next);
            this.sitePrefix = sitePrefix;
        }

        @Override
        public void visitFieldInsn(int opcode, String owner, String name, String descriptor) {
            if (opcode == Opcodes.GETSTATIC && descriptor.equals(VAR_HANDLE_DESC)) {
                lastHandle = name;
            } else if (isVolatile(owner, name)) {
                hook(name);
            }
            super.visitFieldInsn(opcode, owner, name, descriptor);
        }

        @Override
        public void visitMethodInsn(int opcode, String owner, String name, String descriptor, boolean isInterface) {
            if (owner.equals(VAR_HANDLE) && ACCESS_MODES.contains(name)) {
                hook(lastHandle);
            } else if (owner.equals("java/lang/Thread") && INTERRUPT_STATUS.contains(name)) {
                hook(name);
            }
            super.visitMethodInsn(opcode, owner, name, descriptor, isInterface);
        }

        private void hook(String field) {
            super.visitLdcInsn(sitePrefix + field);
            super.visitMethodInsn(Opcodes.INVOKESTATIC, HOOK_OWNER, "reach", "(Ljava/lang/String;)V", false);
        }
    }

    private boolean isVolatile(String owner, String field) {
        if (!owner.startsWith(instrumentedPrefix)) {
            return false;
        }
        return volatileFieldsOf(owner).contains(field);
    }

    /** The volatile fields {@code owner} declares or inherits from superclasses in the instrumented packages. */
    private Set<String> volatileFieldsOf(String owner) {
        Set<String> known = volatileFields.get(owner);
        if (known != null) {
            return known;
        }
        Set<String> names = new HashSet<>();
        String[] superName = new String[1];
        try (InputStream in = loader.getResourceAsStream(owner + ".class")) {
            if (in == null) {
                throw new IllegalStateException("no class file for " + owner);
            }
            new ClassReader(in.readAllBytes()).accept(new ClassVisitor(Opcodes.ASM9) {
                @Override
                public void visit(int version, int access, String name, String signature, String superClass,
                        String[] interfaces) {
                    superName[0] = superClass;
                }

                @Override
                public FieldVisitor visitField(int access, String name, String descriptor, String signature,
                        Object value) {
                    if ((access & Opcodes.ACC_VOLATILE) != 0) {
                        names.add(name);
                    }
                    return null;
                }
            }, ClassReader.SKIP_CODE);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        if (superName[0] != null && superName[0].startsWith(instrumentedPrefix)) {
            names.addAll(volatileFieldsOf(superName[0]));
        }
        volatileFields.put(owner, names);
        return names;
    }

    /** Internal names without importing ASM's {@code Type} beside the JDK's. */
    private static final class Type {
        static String internalName(Class<?> c) {
            return c.getName().replace('.', '/');
        }
    }
}
