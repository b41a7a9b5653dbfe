package io.spinlab.sim.engine;

import io.spinlab.sim.memory.FieldLayouts;
import io.spinlab.sim.memory.MemoryModel;
import io.spinlab.sim.memory.VarHandleTargets;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.lang.reflect.Field;
import java.time.Duration;
import java.util.concurrent.locks.LockSupport;

/**
 * The engine's face to instrumented ("guest") bytecode: the static methods that the memory
 * model's class loader ({@link io.spinlab.sim.memory.GuestClassLoader}) inserts before every
 * volatile and {@code VarHandle} access, and the replacements of the JDK's spin, yield, sleep,
 * park and clock calls. Not for hand-written code.
 *
 * <p>Called from a thread of a running simulation, each memory hook is a scheduling point
 * costed by the {@link MemoryModel}, and each JDK replacement is the matching
 * {@link SimulatedPlatform} call: {@code Thread.onSpinWait} is {@code pause(1)},
 * {@code Thread.yield} is {@code yieldThread}, {@code Thread.sleep} and
 * {@code LockSupport.park*}/{@code unpark} are the platform's sleep, park and unpark, and
 * {@code System.nanoTime}/{@code currentTimeMillis} read the virtual clock. Called from any
 * other thread (a static initializer run before the simulation, code on a real thread), the
 * memory hooks do nothing and the replacements call the JDK. Inside a static initializer on a
 * simulated thread nothing is a scheduling point: the clock reads the current virtual time,
 * spins and yields return at once, and blocking is an error.
 */
public final class GuestHooks {
    /*
     * Implementation notes
     *
     * Finding the simulation: Engine.RUNNING, a ThreadLocal set by each simulated thread for
     * its own virtual thread when its body starts. A thread-local lookup is a few ns, small
     * beside the hand-off (~200 ns) that a scheduling point costs anyway.
     *
     * Why the JDK when not simulated: instrumented classes run their static initializers on
     * the thread that initializes them before a run (Simulation does), and the runner builds
     * guest objects on its own thread; neither is simulated, and neither must block forever
     * or fail because of a hook.
     */

    private static final long NANOS_PER_MILLI = 1_000_000L;
    private static final long PICOS_PER_NANO = 1_000L;

    private GuestHooks() {
    }

    // ------------------------------------------------------------------ memory

    /**
     * Before a volatile field access: {@code target} is the object, or the declaring class of
     * a static field; {@code offset} is the field's byte offset; {@code kind} an {@link AccessKind} ordinal.
     */
    public static void access(Object target, int offset, int kind) {
        SimThread t = scheduled();
        if (t != null && target != null) {
            t.engine.memoryAccess(t, target, offset, kind);
        }
    }

    /**
     * Before a {@code VarHandle} access: {@code receiver} is the object or array (null for a
     * static field), {@code index} the array index (or byte offset of a view), or −1 for a field.
     */
    public static void varHandle(VarHandle handle, Object receiver, int index, int kind) {
        SimThread t = scheduled();
        if (t == null) {
            return;
        }
        if (index >= 0 && receiver != null && receiver.getClass().isArray()) {
            long offset = MemoryModel.ARRAY_BASE_BYTES
                    + (long) index * FieldLayouts.arrayElementBytes(receiver.getClass().getComponentType());
            t.engine.memoryAccess(t, receiver, offset, kind);
        } else {
            VarHandleTargets.Target target = VarHandleTargets.of(handle);
            if (receiver != null) {
                int offset = target == null ? VarHandleTargets.UNKNOWN_OFFSET : target.offset();
                t.engine.memoryAccess(t, receiver, offset, kind);
            } else if (target != null && target.statics() != null) {
                t.engine.memoryAccess(t, target.statics(), target.offset(), kind);
            }
            // else: an instance handle with a null receiver; the access itself throws.
        }
        if (t.storeCommitAt != 0) {
            long commitAt = t.storeCommitAt;
            t.storeCommitAt = 0;
            t.engine.stores.begin(t, handle, receiver, index, commitAt);
        }
    }

    /**
     * After a {@code VarHandle} store without a fence ({@code set}, {@code setOpaque},
     * {@code setRelease}), with the coordinates {@link #varHandle} had: if the store waits in the
     * store buffer, the engine records its new value, which other threads see when it commits.
     */
    public static void stored(VarHandle handle, Object receiver, int index) {
        SimThread t = scheduled();
        if (t != null && t.storeInFlight != null) {
            t.engine.stores.stored(t, handle, receiver, index);
        }
    }

    /** {@code VarHandle.fullFence()}: a locked instruction, no line: it waits for the store buffer to drain. */
    public static void fullFence() {
        SimThread t = scheduled();
        if (t == null) {
            VarHandle.fullFence();
            return;
        }
        t.engine.call(SimThread.REQ_FENCE, 0, null);
    }

    /** {@code Lookup.findVarHandle}, recording the field the handle accesses. */
    public static VarHandle findVarHandle(MethodHandles.Lookup lookup, Class<?> receiver, String name, Class<?> type)
            throws NoSuchFieldException, IllegalAccessException {
        return VarHandleTargets.register(lookup.findVarHandle(receiver, name, type), receiver, name, false);
    }

    /** {@code Lookup.findStaticVarHandle}, recording the field the handle accesses. */
    public static VarHandle findStaticVarHandle(MethodHandles.Lookup lookup, Class<?> declaring, String name,
            Class<?> type) throws NoSuchFieldException, IllegalAccessException {
        return VarHandleTargets.register(lookup.findStaticVarHandle(declaring, name, type), declaring, name, true);
    }

    /** {@code Lookup.unreflectVarHandle}, recording the field the handle accesses. */
    public static VarHandle unreflectVarHandle(MethodHandles.Lookup lookup, Field field)
            throws IllegalAccessException {
        return VarHandleTargets.register(lookup.unreflectVarHandle(field), field);
    }

    /**
     * The instruction clock: the calling block executed {@code count} bytecode instructions.
     * They are charged, as working time, with the thread's next scheduling point; not itself
     * a scheduling point, and no event. Off a simulated thread, and inside a static initializer
     * (which runs in whichever run first touches the class), it does nothing.
     */
    public static void instructions(int count) {
        SimThread t = Engine.RUNNING.get();
        if (t != null && t.initializerDepth == 0) {
            t.pendingInstructions += count;
        }
    }

    /**
     * The instruction clock's stores: the calling code is about to allocate an array of
     * {@code length} elements of {@code elementBytes} each, which the runtime zeroes. Charged
     * like {@link #instructions}; a negative length allocates nothing (the allocation throws).
     */
    public static void allocateArray(int length, int elementBytes) {
        SimThread t = Engine.RUNNING.get();
        if (t != null && t.initializerDepth == 0 && length > 0) {
            t.pendingStoredBytes += (long) length * elementBytes;
        }
    }

    /**
     * {@code System.arraycopy}: charges the bytes copied (elements × the source array's element
     * size, references counted as 8 bytes, as on a 64-bit runtime), then copies. A copy that throws
     * charges nothing.
     */
    public static void arraycopy(Object src, int srcPos, Object dest, int destPos, int length) {
        System.arraycopy(src, srcPos, dest, destPos, length);
        SimThread t = Engine.RUNNING.get();
        if (t != null && t.initializerDepth == 0 && length > 0) {
            t.pendingStoredBytes += (long) length * elementBytes(src.getClass().getComponentType());
        }
    }

    /** Bytes of one array element of {@code component}: its primitive width, 8 for a reference. */
    static int elementBytes(Class<?> component) {
        if (component == byte.class || component == boolean.class) {
            return 1;
        } else if (component == char.class || component == short.class) {
            return 2;
        } else if (component == int.class || component == float.class) {
            return 4;
        }
        return 8; // long, double, and references on a 64-bit runtime
    }

    // ------------------------------------------------------------------ static initializers

    /** First instruction of a guest class's static initializer. */
    public static void enterInitializer() {
        SimThread t = Engine.RUNNING.get();
        if (t != null) {
            t.initializerDepth++;
        }
    }

    /** Before a guest class's static initializer returns or throws. */
    public static void exitInitializer() {
        SimThread t = Engine.RUNNING.get();
        if (t != null && t.initializerDepth > 0) {
            t.initializerDepth--;
        }
    }

    // ------------------------------------------------------------------ JDK replacements

    /** {@code Thread.onSpinWait()}: one PAUSE. */
    public static void onSpinWait() {
        SimThread t = simulated();
        if (t == null) {
            Thread.onSpinWait();
        } else if (t.initializerDepth == 0) {
            t.engine.platform.pause(1);
        }
    }

    /** {@code Thread.yield()}. */
    public static void yieldThread() {
        SimThread t = simulated();
        if (t == null) {
            Thread.yield();
        } else if (t.initializerDepth == 0) {
            t.engine.platform.yieldThread();
        }
    }

    /** {@code Thread.sleep(millis)}. */
    public static void sleep(long millis) throws InterruptedException {
        if (millis < 0) {
            throw new IllegalArgumentException("timeout value is negative");
        }
        sleepNanos(saturatedMultiply(millis, NANOS_PER_MILLI), () -> Thread.sleep(millis));
    }

    /** {@code Thread.sleep(millis, nanos)}. */
    public static void sleep(long millis, int nanos) throws InterruptedException {
        if (millis < 0 || nanos < 0 || nanos > 999_999) {
            throw new IllegalArgumentException("millis = " + millis + ", nanos = " + nanos + " out of range");
        }
        long total = saturatedMultiply(millis, NANOS_PER_MILLI) + nanos;
        sleepNanos(total < 0 ? Long.MAX_VALUE : total, () -> Thread.sleep(millis, nanos));
    }

    /** {@code Thread.sleep(duration)}. */
    public static void sleep(Duration duration) throws InterruptedException {
        long nanos;
        try {
            nanos = Math.max(0, duration.toNanos());
        } catch (ArithmeticException e) {
            nanos = duration.isNegative() ? 0 : Long.MAX_VALUE;
        }
        sleepNanos(nanos, () -> Thread.sleep(duration));
    }

    /** {@code LockSupport.park()}. */
    public static void park() {
        SimThread t = simulated();
        if (t == null) {
            LockSupport.park();
            return;
        }
        blockable(t, "LockSupport.park").engine.platform.park(null);
    }

    /** {@code LockSupport.park(blocker)}. */
    public static void park(Object blocker) {
        SimThread t = simulated();
        if (t == null) {
            LockSupport.park(blocker);
            return;
        }
        blockable(t, "LockSupport.park").engine.platform.park(blocker);
    }

    /** {@code LockSupport.parkNanos(nanos)}. */
    public static void parkNanos(long nanos) {
        SimThread t = simulated();
        if (t == null) {
            LockSupport.parkNanos(nanos);
            return;
        }
        blockable(t, "LockSupport.parkNanos").engine.platform.parkNanos(null, nanos);
    }

    /** {@code LockSupport.parkNanos(blocker, nanos)}. */
    public static void parkNanos(Object blocker, long nanos) {
        SimThread t = simulated();
        if (t == null) {
            LockSupport.parkNanos(blocker, nanos);
            return;
        }
        blockable(t, "LockSupport.parkNanos").engine.platform.parkNanos(blocker, nanos);
    }

    /** {@code LockSupport.parkUntil(deadline)}: the deadline is on the virtual millisecond clock. */
    public static void parkUntil(long deadlineMillis) {
        SimThread t = simulated();
        if (t == null) {
            LockSupport.parkUntil(deadlineMillis);
            return;
        }
        parkUntil(blockable(t, "LockSupport.parkUntil"), null, deadlineMillis);
    }

    /** {@code LockSupport.parkUntil(blocker, deadline)}. */
    public static void parkUntil(Object blocker, long deadlineMillis) {
        SimThread t = simulated();
        if (t == null) {
            LockSupport.parkUntil(blocker, deadlineMillis);
            return;
        }
        parkUntil(blockable(t, "LockSupport.parkUntil"), blocker, deadlineMillis);
    }

    private static void parkUntil(SimThread t, Object blocker, long deadlineMillis) {
        t.engine.catchUp(t);
        long nanos = saturatedMultiply(deadlineMillis, NANOS_PER_MILLI) - t.engine.now / PICOS_PER_NANO;
        t.engine.platform.parkNanos(blocker, nanos);
    }

    /** {@code LockSupport.unpark(thread)}. */
    public static void unpark(Thread thread) {
        SimThread t = simulated();
        if (t == null) {
            LockSupport.unpark(thread);
        } else if (t.initializerDepth == 0) {
            t.engine.platform.unpark(thread);
        }
    }

    /** {@code System.nanoTime()}: the virtual clock. */
    public static long nanoTime() {
        SimThread t = simulated();
        if (t == null) {
            return System.nanoTime();
        }
        return t.initializerDepth == 0 ? t.engine.platform.nanoTime() : t.engine.now / PICOS_PER_NANO;
    }

    /** {@code System.currentTimeMillis()}: the virtual clock in ms, from 0 at the start of the run. */
    public static long currentTimeMillis() {
        SimThread t = simulated();
        if (t == null) {
            return System.currentTimeMillis();
        }
        return nanoTime() / NANOS_PER_MILLI;
    }

    // ------------------------------------------------------------------ helpers

    /** The calling simulated thread if a memory hook is a scheduling point for it now, else null. */
    private static SimThread scheduled() {
        SimThread t = Engine.RUNNING.get();
        if (t == null || t.initializerDepth > 0 || t.engine.memory == null) {
            return null;
        }
        return t;
    }

    /** The calling simulated thread, or null on any other thread. */
    private static SimThread simulated() {
        return Engine.RUNNING.get();
    }

    private static SimThread blockable(SimThread t, String what) {
        if (t.initializerDepth > 0) {
            throw new IllegalStateException(what + " inside a static initializer of a simulated thread: it would "
                    + "pin the engine's thread; initialize the class before the run");
        }
        return t;
    }

    private static void sleepNanos(long nanos, InterruptibleAction onJdk) throws InterruptedException {
        SimThread t = simulated();
        if (t == null) {
            onJdk.run();
            return;
        }
        blockable(t, "Thread.sleep");
        if (Thread.interrupted()) {
            throw new InterruptedException("sleep interrupted");
        }
        t.engine.platform.sleep(nanos);
        if (Thread.interrupted()) {
            throw new InterruptedException("sleep interrupted");
        }
    }

    private static long saturatedMultiply(long a, long b) {
        long high = Math.multiplyHigh(a, b);
        long low = a * b;
        if ((high == 0 && low >= 0) || (high == -1 && low < 0)) {
            return low;
        }
        return a < 0 ? Long.MIN_VALUE : Long.MAX_VALUE;
    }

    /** A JDK call that may be interrupted. */
    @FunctionalInterface
    private interface InterruptibleAction {
        void run() throws InterruptedException;
    }
}
