package io.spinlab.sim.workload;

import io.spinlab.impl.spin.SpinContext;
import io.spinlab.model.platform.Platform;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * A fixture of the store buffer: another thread reads a field, so that its core holds the line;
 * then the measuring thread, on another core, stores to that field and times the store between
 * two clock reads. {@code mode} picks the store and what follows it: {@code 0} a release store
 * ({@code setRelease}), {@code 1} a volatile store, {@code 2} a release store followed by a
 * compare-and-set on a line nobody holds, {@code 3} a release store followed by
 * {@code VarHandle.fullFence()}. The result's {@code elapsedNanos} is the time between
 * the clock reads, which includes one clock read's cost.
 */
public final class StoreAfterRemoteRead implements Workload {
    private static final VarHandle VALUE;

    static {
        try {
            MethodHandles.Lookup lookup = MethodHandles.lookup();
            VALUE = lookup.findVarHandle(Cell.class, "value", int.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private final int mode;

    /** @param mode 0: release store, 1: volatile store, 2: release store then a CAS elsewhere, 3: then a full fence */
    public StoreAfterRemoteRead(int mode) {
        this.mode = mode;
    }

    @Override
    public String name() {
        return "store-after-remote-read";
    }

    @Override
    public String parameters() {
        return "mode=" + mode;
    }

    @Override
    public WorkloadResult run(SpinContext context) {
        Platform platform = context.platform();
        Cell shared = new Cell();
        Cell other = new Cell();
        Cell done = new Cell();
        platform.startThread("reader", () -> {
            int seen = shared.value;
            done.value = seen + 1;
        });
        while (done.value == 0) {
            platform.pause(1);
        }
        long begin = platform.nanoTime();
        switch (mode) {
            case 0 -> VALUE.setRelease(shared, 7);
            case 1 -> shared.value = 7;
            case 2 -> {
                VALUE.setRelease(shared, 7);
                VALUE.compareAndSet(other, 0, 1);
            }
            case 3 -> {
                VALUE.setRelease(shared, 7);
                VarHandle.fullFence();
            }
            default -> throw new IllegalArgumentException("mode = " + mode);
        }
        long end = platform.nanoTime();
        return new WorkloadResult(name(), parameters(), platform.toString(), 1, end - begin);
    }

    /** One int on a line of its own (the memory model puts every object on its own line). */
    static final class Cell {
        volatile int value;
    }
}
