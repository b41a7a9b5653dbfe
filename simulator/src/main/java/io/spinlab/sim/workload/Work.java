package io.spinlab.sim.workload;

import io.spinlab.model.platform.Platform;

/**
 * The work a workload does between two synchronization operations, through the
 * {@link Platform} so that it takes time on hardware and in the simulator alike.
 *
 * <p>Why workloads need it: in the simulator, Java code between two {@code Platform} calls
 * runs atomically and costs no virtual time. A loop of lock-free operations (a queue's offer
 * and poll, an uncontended lock's enter and exit) makes no {@code Platform} call at all, so
 * without a tick it would never give the engine control back, and an event set and reset
 * in one breath would never be seen set. Every loop in these workloads therefore ticks at
 * least once per operation: one clock read, about 20 ns on current x86 hardware and in every
 * machine profile (its {@code clockReadNs}). Windowed workloads tick through
 * {@link MeasuredRun#count} and {@link MeasuredRun#tick}, which also watch the window's end.
 */
public final class Work {

    private Work() {
    }

    /** The smallest unit of work: one clock read. */
    public static void tick(Platform platform) {
        platform.nanoTime();
    }

    /**
     * Busy work for at least {@code nanos} of the platform's clock (reading the clock in a
     * loop, never PAUSE, so that its length does not depend on the PAUSE being studied); one
     * tick when {@code nanos <= 0}.
     */
    public static void busy(Platform platform, long nanos) {
        long start = platform.nanoTime();
        if (nanos <= 0) {
            return;
        }
        while (platform.nanoTime() - start < nanos) {
            // the clock read is the work
        }
    }
}
