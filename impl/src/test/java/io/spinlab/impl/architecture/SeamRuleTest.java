package io.spinlab.impl.architecture;

import io.spinlab.impl.platform.HardwarePlatform;
import org.junit.jupiter.api.Test;

import org.objectweb.asm.ClassWriter;
import org.objectweb.asm.Handle;
import org.objectweb.asm.MethodVisitor;
import org.objectweb.asm.Opcodes;

import java.io.IOException;
import java.io.InputStream;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.lang.reflect.Method;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;
import java.util.function.LongSupplier;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Enforces DESIGN.md's seam rule on the compiled production classes of impl: only
 * HardwarePlatform touches Thread.onSpinWait/yield/sleep, LockSupport, the system clock; no
 * synchronized, Object.wait/notify, java.util.concurrent.locks, Atomic*, Unsafe or
 * ThreadLocalRandom anywhere else.
 */
class SeamRuleTest {

    @Test
    void productionClassesShouldGoThroughThePlatform() throws Exception {
        Path classes = Path.of(HardwarePlatform.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        assertThat(classes.resolve("io/spinlab/impl/platform/HardwarePlatform.class")).exists();
        assertThat(SeamRuleScanner.scanDirectory(classes)).isEmpty();
    }

    @Test
    void shouldAllowHardwarePlatformItself() throws IOException {
        assertThat(SeamRuleScanner.scan(bytesOf(HardwarePlatform.class))).isEmpty();
    }

    @Test
    void shouldCatchEveryKindOfBreach() throws IOException {
        List<String> violations = SeamRuleScanner.scan(bytesOf(RuleBreaker.class));
        assertThat(violations).anyMatch(v -> v.contains("Thread.onSpinWait"))
                .anyMatch(v -> v.contains("Thread.yield"))
                .anyMatch(v -> v.contains("Thread.sleep"))
                .anyMatch(v -> v.contains("System.nanoTime"))
                .anyMatch(v -> v.contains("LockSupport"))
                .anyMatch(v -> v.contains("synchronized block"))
                .anyMatch(v -> v.contains("synchronized method"))
                .anyMatch(v -> v.contains("Object.notifyAll"))
                .anyMatch(v -> v.contains("AtomicInteger"))
                .anyMatch(v -> v.contains("ReentrantLock"))
                .anyMatch(v -> v.contains("ThreadLocalRandom"));
    }

    @Test
    void shouldCatchForbiddenMethodsNamedByMethodReferences() throws IOException {
        List<String> violations = SeamRuleScanner.scan(bytesOf(MethodReferenceBreaker.class));

        assertThat(violations).as("%s", violations)
                .anyMatch(v -> v.contains("method reference java.lang.Thread::onSpinWait"))
                .anyMatch(v -> v.contains("method reference java.lang.Thread::yield"))
                .anyMatch(v -> v.contains("method reference java.lang.System::nanoTime"))
                .anyMatch(v -> v.contains("method reference java.util.concurrent.locks.LockSupport::unpark"))
                .hasSize(4);
    }

    @Test
    void shouldCatchAMethodHandleConstant() {
        List<String> violations = SeamRuleScanner.scan(classLoadingAHandleConstant());

        assertThat(violations).containsExactly("io.spinlab.impl.Planted.spin: method handle constant "
                + "java.lang.Thread::onSpinWait (processor or scheduler: use Platform)");
    }

    @Test
    void shouldCatchReflectiveLookups() throws IOException {
        List<String> violations = SeamRuleScanner.scan(bytesOf(ReflectionBreaker.class));

        assertThat(violations).as("%s", violations)
                .anyMatch(v -> v.contains("calls java.lang.Class.forName (reflection"))
                .anyMatch(v -> v.contains("calls java.lang.Class.getMethod (reflection"))
                .anyMatch(v -> v.contains("calls java.lang.reflect.Method.invoke (reflection"))
                .anyMatch(v -> v.contains("calls java.lang.invoke.MethodHandles$Lookup.findStatic (method-handle"))
                .anyMatch(v -> v.contains("calls java.lang.invoke.MethodHandles.publicLookup (method-handle"))
                .anyMatch(v -> v.contains("calls java.lang.invoke.MethodHandle.invokeExact (method-handle call"));
        assertThat(violations).as("VarHandle mechanics stay allowed")
                .noneMatch(v -> v.contains("findVarHandle") || v.contains(".lookup ("));
    }

    /** A class whose one method loads {@code Thread::onSpinWait} as a constant (javac never writes this; ASM can). */
    private static byte[] classLoadingAHandleConstant() {
        ClassWriter writer = new ClassWriter(ClassWriter.COMPUTE_MAXS);
        writer.visit(Opcodes.V21, Opcodes.ACC_FINAL, "io/spinlab/impl/Planted", null, "java/lang/Object", null);
        MethodVisitor method = writer.visitMethod(Opcodes.ACC_STATIC, "spin", "()Ljava/lang/Object;", null, null);
        method.visitCode();
        method.visitLdcInsn(new Handle(Opcodes.H_INVOKESTATIC, "java/lang/Thread", "onSpinWait", "()V", false));
        method.visitInsn(Opcodes.ARETURN);
        method.visitMaxs(0, 0);
        method.visitEnd();
        writer.visitEnd();
        return writer.toByteArray();
    }

    private static byte[] bytesOf(Class<?> type) throws IOException {
        String resource = "/" + type.getName().replace('.', '/') + ".class";
        try (InputStream in = type.getResourceAsStream(resource)) {
            assertThat(in).as(resource).isNotNull();
            return in.readAllBytes();
        }
    }

    /** Everything the rule forbids, once each; never run. */
    @SuppressWarnings("unused")
    static final class RuleBreaker {
        private final Object monitor = new Object();
        private final AtomicInteger counter = new AtomicInteger();

        void spin() throws InterruptedException {
            Thread.onSpinWait();
            Thread.yield();
            Thread.sleep(1);
            long t = System.nanoTime();
            LockSupport.park(this);
            synchronized (monitor) {
                monitor.notifyAll();
            }
            new java.util.concurrent.locks.ReentrantLock().lock();
            int r = java.util.concurrent.ThreadLocalRandom.current().nextInt(t > 0 ? 2 : 3);
            counter.addAndGet(r);
        }

        synchronized void locked() {
        }
    }

    /** The forbidden methods again, named by method references instead of called; never run. */
    @SuppressWarnings("unused")
    static final class MethodReferenceBreaker {
        Runnable spin = Thread::onSpinWait;
        Runnable yield = Thread::yield;
        LongSupplier clock = System::nanoTime;
        java.util.function.Consumer<Thread> wake = LockSupport::unpark;
        /** A lambda that calls nothing forbidden, and a VarHandle lookup: both allowed. */
        Runnable harmless = () -> { };
        Object handle = varHandle();

        static Object varHandle() {
            try {
                return MethodHandles.lookup().findVarHandle(MethodReferenceBreaker.class, "spin", Runnable.class);
            } catch (ReflectiveOperationException e) {
                throw new IllegalStateException(e);
            }
        }
    }

    /** Reaching Thread.onSpinWait by name, reflectively and through a method handle; never run. */
    @SuppressWarnings("unused")
    static final class ReflectionBreaker {
        void spin() throws Throwable {
            Method onSpinWait = Class.forName("java.lang.Thread").getMethod("onSpinWait");
            onSpinWait.invoke(null);
            MethodHandles.lookup().findStatic(Thread.class, "onSpinWait", MethodType.methodType(void.class))
                    .invokeExact();
            MethodHandles.publicLookup().findStatic(Thread.class, "yield", MethodType.methodType(void.class));
            MethodHandles.lookup().findVarHandle(ReflectionBreaker.class, "field", int.class);
        }

        int field;
    }
}
