package io.spinlab.sim.workload;

import io.spinlab.impl.spin.SpinContext;
import io.spinlab.model.platform.Platform;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * A fixture of the store buffer's visibility: a reader takes a line early; at 10 µs a writer on
 * another core stores 7 to it with {@code setRelease}, which misses and waits in its store
 * buffer; the reader reads the line again at 10.2 µs, while its copy is still valid (the
 * writer's request has not reached it) and the store has not committed, and once more at 12 µs.
 * The result carries the two values read: {@code operations} the one at 10.2 µs,
 * {@code elapsedNanos} the one at 12 µs. Meant for a profile whose line transfer is long (1 µs)
 * beside the clock read, so that both reads fall well inside their windows.
 */
public final class BufferedStoreVisibility implements Workload {
    /** The value of a {@link Cell} (also used by {@link UnparkAfterBufferedStore}). */
    static final VarHandle VALUE;

    static {
        try {
            VALUE = MethodHandles.lookup().findVarHandle(Cell.class, "value", int.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    @Override
    public String name() {
        return "buffered-store-visibility";
    }

    @Override
    public String parameters() {
        return "";
    }

    @Override
    public WorkloadResult run(SpinContext context) {
        Platform platform = context.platform();
        Cell shared = new Cell();
        Cell done = new Cell();
        int[] seen = new int[3];
        platform.startThread("reader", () -> {
            seen[0] = (int) VALUE.getOpaque(shared);
            until(platform, 10_200);
            seen[1] = (int) VALUE.getOpaque(shared);
            until(platform, 12_000);
            seen[2] = (int) VALUE.getOpaque(shared);
            done.value = 1;
        });
        until(platform, 10_000);
        VALUE.setRelease(shared, 7);
        while (done.value == 0) {
            platform.nanoTime();
        }
        return new WorkloadResult(name(), parameters(), platform.toString(), seen[1], seen[2]);
    }

    /** Reads the clock until it shows {@code nanos}. */
    static void until(Platform platform, long nanos) {
        while (platform.nanoTime() < nanos) {
            // the clock read is the wait
        }
    }

    /** One int on a line of its own. */
    static final class Cell {
        volatile int value;
    }
}
