package io.spinlab.sim.workload;

import io.spinlab.impl.spin.SpinContext;
import io.spinlab.model.platform.Platform;
import org.agrona.concurrent.BackoffIdleStrategy;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.concurrent.TimeUnit;

/**
 * Foreign spin code in the simulator: a consumer waits for items in a one-slot mailbox with
 * Agrona's {@link BackoffIdleStrategy} (spin with {@code Thread.onSpinWait}, then
 * {@code Thread.yield}, then {@code LockSupport.parkNanos} with a doubling period), while a
 * producer hands over one item every {@code gapNanos} (a timed park of the platform). Agrona
 * knows nothing of {@code Platform}: only the memory model's instrumenting class loader, with
 * {@code org.agrona.} among its guest packages, routes its JDK calls to the simulation.
 * Score: items per ms.
 */
public final class BackoffIdleHandoff implements Workload {

    private static final long MAX_SPINS = 10;
    private static final long MAX_YIELDS = 5;
    private static final long MIN_PARK_NANOS = 1_000;
    private static final long MAX_PARK_NANOS = 64_000;

    private final int items;
    private final long gapNanos;

    public BackoffIdleHandoff(int items, long gapNanos) {
        this.items = items;
        this.gapNanos = gapNanos;
    }

    @Override
    public String name() {
        return "backoff-idle-handoff";
    }

    @Override
    public String parameters() {
        return "items=" + items + ",gap=" + gapNanos + "ns";
    }

    @Override
    public WorkloadResult run(SpinContext context) throws InterruptedException {
        Platform platform = context.platform();
        Mailbox mailbox = new Mailbox();
        WorkerGroup group = new WorkerGroup(context, 1);
        long begin = platform.nanoTime();
        group.start("consumer", () -> {
            BackoffIdleStrategy idle = new BackoffIdleStrategy(MAX_SPINS, MAX_YIELDS, MIN_PARK_NANOS, MAX_PARK_NANOS);
            for (int taken = 0; taken < items; ) {
                if (mailbox.take() != null) {
                    taken++;
                    idle.reset();
                } else {
                    idle.idle();
                }
            }
        });
        BackoffIdleStrategy idle = new BackoffIdleStrategy(MAX_SPINS, MAX_YIELDS, MIN_PARK_NANOS, MAX_PARK_NANOS);
        for (int i = 0; i < items; i++) {
            platform.parkNanos(mailbox, gapNanos);
            while (!mailbox.put(Integer.valueOf(i))) {
                idle.idle();
            }
            idle.reset();
        }
        group.join(60, TimeUnit.SECONDS);
        return new WorkloadResult(name(), parameters(), platform.toString(), items, platform.nanoTime() - begin);
    }

    /** One slot, filled by CAS from empty and emptied by exchange. */
    static final class Mailbox {
        volatile Object slot;

        boolean put(Object item) {
            return SLOT.compareAndSet(this, null, item);
        }

        Object take() {
            return slot == null ? null : SLOT.getAndSet(this, null);
        }

        // VarHandle mechanics
        private static final VarHandle SLOT;

        static {
            try {
                SLOT = MethodHandles.lookup().findVarHandle(Mailbox.class, "slot", Object.class);
            } catch (ReflectiveOperationException e) {
                throw new ExceptionInInitializerError(e);
            }
        }
    }
}
