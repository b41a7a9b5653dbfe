package io.spinlab.sim.workload;

import io.spinlab.impl.spin.SpinContext;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.concurrent.locks.LockSupport;

/**
 * Every kind of access the memory model instruments, once each, on the workload's own thread:
 * volatile fields (int, long, reference, static), every VarHandle access mode on an instance
 * field, a static field and an array element, and the JDK calls the loader reroutes.
 * {@code operations} is the number of memory accesses it made, so a test can compare it with
 * the memory model's count; the JDK calls show in the thread's time split.
 */
public final class AccessZoo implements Workload {

    /** Volatile field reads and writes below. */
    public static final int FIELD_READS = 4;
    public static final int FIELD_VOLATILE_WRITES = 4;
    /** VarHandle accesses below, by kind. */
    public static final int HANDLE_READS = 4 + 1;
    public static final int HANDLE_WRITES = 3;
    public static final int HANDLE_VOLATILE_WRITES = 1;
    public static final int HANDLE_READ_MODIFY_WRITES = 8 + 15 + 1 + 1;
    /** Sleep of the Thread.sleep call, ms. */
    public static final long SLEEP_MILLIS = 2;
    /** Timed park of the LockSupport.parkNanos call, ns. */
    public static final long PARK_NANOS = 50_000;

    @Override
    public String name() {
        return "access-zoo";
    }

    @Override
    public String parameters() {
        return "";
    }

    @Override
    @SuppressWarnings("unused")
    public WorkloadResult run(SpinContext context) throws InterruptedException {
        long start = System.nanoTime();
        Cells c = new Cells();
        int i = c.i;
        c.i = i + 1;
        long l = c.l;
        c.l = l + 1;
        Object o = c.o;
        c.o = c;
        int s = Cells.statics;
        Cells.statics = s + 1;

        int x = (int) Cells.I.get(c) + (int) Cells.I.getVolatile(c) + (int) Cells.I.getOpaque(c)
                + (int) Cells.I.getAcquire(c);
        Cells.I.set(c, 1);
        Cells.I.setOpaque(c, 2);
        Cells.I.setRelease(c, 3);
        Cells.I.setVolatile(c, 4);
        boolean b = Cells.I.compareAndSet(c, 4, 5);
        x += (int) Cells.I.compareAndExchange(c, 5, 6) + (int) Cells.I.compareAndExchangeAcquire(c, 6, 7)
                + (int) Cells.I.compareAndExchangeRelease(c, 7, 8);
        b |= Cells.I.weakCompareAndSet(c, 8, 9) | Cells.I.weakCompareAndSetPlain(c, 9, 10)
                | Cells.I.weakCompareAndSetAcquire(c, 10, 11) | Cells.I.weakCompareAndSetRelease(c, 11, 12);
        long y = (long) Cells.L.getAndSet(c, 1L) + (long) Cells.L.getAndSetAcquire(c, 2L)
                + (long) Cells.L.getAndSetRelease(c, 3L) + (long) Cells.L.getAndAdd(c, 1L)
                + (long) Cells.L.getAndAddAcquire(c, 1L) + (long) Cells.L.getAndAddRelease(c, 1L)
                + (long) Cells.L.getAndBitwiseOr(c, 1L) + (long) Cells.L.getAndBitwiseOrAcquire(c, 1L)
                + (long) Cells.L.getAndBitwiseOrRelease(c, 1L) + (long) Cells.L.getAndBitwiseAnd(c, 1L)
                + (long) Cells.L.getAndBitwiseAndAcquire(c, 1L) + (long) Cells.L.getAndBitwiseAndRelease(c, 1L)
                + (long) Cells.L.getAndBitwiseXor(c, 1L) + (long) Cells.L.getAndBitwiseXorAcquire(c, 1L)
                + (long) Cells.L.getAndBitwiseXorRelease(c, 1L);
        x += (int) Cells.STATICS.getAndAdd(1);
        x += (int) Cells.ELEMENTS.get(c.array, 3);
        b |= Cells.ELEMENTS.compareAndSet(c.array, 5, 0, 1);

        Thread.onSpinWait();
        Thread.yield();
        Thread.sleep(SLEEP_MILLIS);
        LockSupport.parkNanos(this, PARK_NANOS);
        long elapsed = System.nanoTime() - start;
        int accesses = FIELD_READS + FIELD_VOLATILE_WRITES + HANDLE_READS + HANDLE_WRITES + HANDLE_VOLATILE_WRITES
                + HANDLE_READ_MODIFY_WRITES;
        return new WorkloadResult(name(), "x=" + x + ",y=" + y + ",b=" + b, context.platform().toString(), accesses,
                elapsed);
    }

    /** The fields and handles the zoo touches. */
    static final class Cells {
        static volatile int statics;
        volatile int i;
        volatile long l;
        volatile Object o;
        final int[] array = new int[8];

        // VarHandle mechanics
        static final VarHandle I;
        static final VarHandle L;
        static final VarHandle STATICS;
        static final VarHandle ELEMENTS = MethodHandles.arrayElementVarHandle(int[].class);

        static {
            try {
                MethodHandles.Lookup lookup = MethodHandles.lookup();
                I = lookup.findVarHandle(Cells.class, "i", int.class);
                L = lookup.findVarHandle(Cells.class, "l", long.class);
                STATICS = lookup.findStaticVarHandle(Cells.class, "statics", int.class);
            } catch (ReflectiveOperationException e) {
                throw new ExceptionInInitializerError(e);
            }
        }
    }
}
