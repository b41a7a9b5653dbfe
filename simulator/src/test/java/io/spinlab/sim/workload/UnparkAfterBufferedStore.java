package io.spinlab.sim.workload;

import io.spinlab.impl.spin.SpinContext;
import io.spinlab.model.platform.Platform;

import static io.spinlab.sim.workload.BufferedStoreVisibility.VALUE;
import static io.spinlab.sim.workload.BufferedStoreVisibility.until;

/**
 * A fixture of an unpark after a buffered store: a waiter takes a line early; at 10 µs a waker on
 * another core stores 7 to it with {@code setRelease} (it misses and waits in the store buffer)
 * and unparks the waiter, which is still running; at 10.2 µs the waiter parks, finds the permit,
 * and reads the line. A real unpark takes a lock (a locked instruction), which drains the
 * waker's store buffer first, so the waiter must read 7 (a flag handed over this way is the
 * pattern of every park-based wake-up). The result carries the value read as
 * {@code operations} and the time the waiter's park returned as {@code elapsedNanos}. Meant for
 * a profile whose line transfer is long (1 µs) beside the clock read.
 */
public final class UnparkAfterBufferedStore implements Workload {

    @Override
    public String name() {
        return "unpark-after-buffered-store";
    }

    @Override
    public String parameters() {
        return "";
    }

    @Override
    public WorkloadResult run(SpinContext context) {
        Platform platform = context.platform();
        BufferedStoreVisibility.Cell shared = new BufferedStoreVisibility.Cell();
        BufferedStoreVisibility.Cell done = new BufferedStoreVisibility.Cell();
        long[] seen = new long[2];
        Thread waiter = platform.startThread("waiter", () -> {
            seen[0] = (int) VALUE.getOpaque(shared);
            until(platform, 10_200);
            platform.park(shared);
            seen[1] = platform.nanoTime();
            seen[0] = (int) VALUE.getOpaque(shared);
            done.value = 1;
        });
        until(platform, 10_000);
        VALUE.setRelease(shared, 7);
        platform.unpark(waiter);
        while (done.value == 0) {
            platform.nanoTime();
        }
        return new WorkloadResult(name(), parameters(), platform.toString(), seen[0], seen[1]);
    }
}
