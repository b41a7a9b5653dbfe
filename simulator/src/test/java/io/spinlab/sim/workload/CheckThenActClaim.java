package io.spinlab.sim.workload;

import io.spinlab.impl.event.ManualResetEvent;
import io.spinlab.impl.spin.SpinContext;
import io.spinlab.model.platform.Platform;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.concurrent.TimeUnit;

/**
 * A planted race: N threads, after a random delay drawn from the platform, each try once to
 * claim an owner field. The racy claim is a check-then-act on a volatile field
 * ({@code if (owner == 0) owner = me}); the correct one is a compare-and-set. At most one
 * thread may win. The result's {@code operations} is the number of winners, so a result
 * above 1 is the violation.
 */
public final class CheckThenActClaim implements Workload {

    private final int threads;
    private final int maxDelayPauses;
    private final boolean atomic;

    /**
     * @param threads        contenders
     * @param maxDelayPauses each contender first waits 1 + nextRandom(maxDelayPauses) PAUSEs
     * @param atomic         claim by compare-and-set instead of check-then-act
     */
    public CheckThenActClaim(int threads, int maxDelayPauses, boolean atomic) {
        this.threads = threads;
        this.maxDelayPauses = maxDelayPauses;
        this.atomic = atomic;
    }

    @Override
    public String name() {
        return "check-then-act-claim";
    }

    @Override
    public String parameters() {
        return "threads=" + threads + ",maxDelay=" + maxDelayPauses + ",atomic=" + atomic;
    }

    @Override
    public WorkloadResult run(SpinContext context) throws InterruptedException {
        Platform platform = context.platform();
        Claim claim = new Claim();
        ManualResetEvent start = new ManualResetEvent(context);
        WorkerGroup group = new WorkerGroup(context, threads);
        long begin = platform.nanoTime();
        for (int t = 0; t < threads; t++) {
            int me = t + 1;
            group.start("contender-" + t, () -> {
                start.await();
                platform.pause(1 + platform.nextRandom(maxDelayPauses));
                if (atomic) {
                    claim.claimByCas(me);
                } else {
                    claim.claimByCheckThenAct(me);
                }
            });
        }
        start.set();
        group.join(60, TimeUnit.SECONDS);
        return new WorkloadResult(name(), parameters(), platform.toString(), claim.winners,
                platform.nanoTime() - begin);
    }

    /** The contested owner field and the count of threads that believe they won. */
    static final class Claim {
        volatile int owner;
        volatile int winners;

        void claimByCheckThenAct(int me) {
            if (owner == 0) {
                owner = me;
                WINNERS.getAndAdd(this, 1);
            }
        }

        void claimByCas(int me) {
            if (OWNER.compareAndSet(this, 0, me)) {
                WINNERS.getAndAdd(this, 1);
            }
        }

        // VarHandle mechanics
        private static final VarHandle OWNER;
        private static final VarHandle WINNERS;

        static {
            try {
                MethodHandles.Lookup lookup = MethodHandles.lookup();
                OWNER = lookup.findVarHandle(Claim.class, "owner", int.class);
                WINNERS = lookup.findVarHandle(Claim.class, "winners", int.class);
            } catch (ReflectiveOperationException e) {
                throw new ExceptionInInitializerError(e);
            }
        }
    }
}
