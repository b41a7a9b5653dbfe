package io.spinlab.properties.lincheck;

import io.spinlab.impl.pool.ThreadPool;
import io.spinlab.impl.spin.SpinContext;
import io.spinlab.model.platform.ForwardingPlatform;
import io.spinlab.model.platform.Platform;
import io.spinlab.model.tuning.ThreadRequestPolicy;
import io.spinlab.model.tuning.Tuning;
import io.spinlab.properties.mutation.Mutation;
import org.jetbrains.lincheck.datastructures.ModelCheckingOptions;
import org.jetbrains.lincheck.datastructures.Operation;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A {@link ThreadPool} starts one starvation gate thread, however many submitters' worker requests race
 * to start it: checked by Lincheck's model checker against {@link Spec}, in which there is never a second.
 *
 * <p>The pool's platform hands out threads that are never started (the workers and the gate stay
 * unstarted, so only the submitters run) and counts the gate threads asked for. Per-item requests, so
 * that every submission requests a worker and so reaches the gate's start. Nothing is generated before
 * the parallel part: the gate starts once, and a submission there would start it before any two could race.
 */
@Timeout(value = 10, unit = TimeUnit.MINUTES) // long on purpose: above the module's 60 s default
public class ThreadPoolGateLinearizabilityTest {
    private final GateCounting threads = new GateCounting(
            new TaskLinearizabilityTest.UnstartedThreads(CheckedContexts.CheckedPlatform.MULTIPROCESSOR));
    private final ThreadPool pool = ThreadPool.builder(SpinContext.of(threads, Tuning.current(),
                    CheckedContexts.FixedPauseNormalizer.INSTANCE))
            .name("lincheck").minWorkers(1).maxWorkers(2).requestPolicy(ThreadRequestPolicy.PER_ITEM).build();

    @Operation
    public void execute() {
        pool.execute(() -> { });
    }

    /**
     * True while the pool has asked its platform for at most one gate thread. (Not "one once a submission
     * returned": a submitter may return while a concurrent one is still starting the gate.)
     */
    @Operation
    public boolean atMostOneGate() {
        return threads.gates.get() <= 1;
    }

    /** The pool: never a second gate. */
    public static final class Spec {
        public void execute() {
        }

        public boolean atMostOneGate() {
            return true;
        }

        @Override
        public boolean equals(Object other) {
            return other instanceof Spec;
        }

        @Override
        public int hashCode() {
            return 1;
        }
    }

    /** Unstarted threads, counting the gate threads among them. */
    static final class GateCounting extends ForwardingPlatform {
        final AtomicInteger gates = new AtomicInteger();

        GateCounting(Platform threads) {
            super(threads);
        }

        @Override
        public Thread startThread(String name, Runnable task) {
            if (name.endsWith("-gate")) {
                gates.incrementAndGet();
            }
            return super.startThread(name, task);
        }
    }

    static ModelCheckingOptions options() {
        return LincheckBudget.modelChecking().actorsBefore(0).sequentialSpecification(Spec.class);
    }

    @Test
    public void modelChecking() {
        options().check(getClass());
    }

    @Test
    public void threeThreadsModelChecking() {
        LincheckBudget.threeThreads(options()).check(getClass());
    }

    /**
     * PIT's survivor at the gate's start (impl/MUTATION.md, thirteenth measurement): the CAS's result
     * ignored, so two submitters that both read "not started" both start a gate thread.
     */
    static final Mutation TWO_GATES = Mutation.branchAlwaysTaken(
            Mutation.inPackage(ThreadPool.class, "StarvationGate"), "ensureRunning", "IFNE", 1);

    @Test
    public void plantedTwoGatesModelChecking() {
        Planted.assertCaught(options(), getClass(), TWO_GATES);
    }
}
