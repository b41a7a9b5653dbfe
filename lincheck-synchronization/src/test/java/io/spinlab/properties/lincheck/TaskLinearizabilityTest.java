package io.spinlab.properties.lincheck;

import io.spinlab.impl.pool.Task;
import io.spinlab.impl.pool.ThreadPool;
import io.spinlab.impl.spin.SpinContext;
import io.spinlab.model.platform.ForwardingPlatform;
import io.spinlab.model.platform.Platform;
import io.spinlab.model.tuning.Knob;
import io.spinlab.model.tuning.SpinPolicy;
import io.spinlab.model.tuning.Tuning;
import io.spinlab.properties.mutation.Mutation;
import org.jetbrains.kotlinx.lincheck.Actor;
import org.jetbrains.kotlinx.lincheck.execution.ExecutionScenario;
import org.jetbrains.lincheck.datastructures.ModelCheckingOptions;
import org.jetbrains.lincheck.datastructures.Operation;
import org.jetbrains.lincheck.datastructures.StressOptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * A {@link ThreadPool} {@link Task} runs its code exactly once, however many threads call
 * {@code run()} (a worker, a caller that runs what {@code shutdownNow()} returned, a joiner), and
 * never after a successful {@code cancel}: linearizable with respect to {@link Spec}.
 *
 * <p>The task is submitted to a pool whose platform hands out threads that are never started,
 * so the task stays queued and only Lincheck's threads run it. The count of runs is a plain
 * field written by the task's code: a second run shows as a count of 2, which
 * {@code ranAtMostOnce} reports, exactly the double execution the pool promises against.
 *
 * <p>Not covered here: the pool's own dispatch (local queues, stealing, shutdown) with real
 * workers; that is checked for exactly-once delivery in the simulator
 * ({@code ThreadPoolExactlyOnceProperties}) and, for its work-stealing queue, by
 * {@link WorkStealingQueueLinearizabilityTest}.
 */
@Timeout(value = 10, unit = TimeUnit.MINUTES) // long on purpose: above the module's 60 s default
public class TaskLinearizabilityTest {
    private int runs;
    private final Task<Integer> task = newPool().submit(() -> ++runs);

    private static ThreadPool newPool() {
        return newPool(CheckedContexts.CheckedPlatform.MULTIPROCESSOR, Tuning.current());
    }

    private static ThreadPool newPool(Platform checked, Tuning tuning) {
        SpinContext context = SpinContext.of(new UnstartedThreads(checked), tuning,
                CheckedContexts.FixedPauseNormalizer.INSTANCE);
        return ThreadPool.builder(context).name("lincheck").minWorkers(1).maxWorkers(1).build();
    }

    @Operation
    public void run() {
        task.run();
    }

    @Operation
    public boolean cancel() {
        return task.cancel(false);
    }

    @Operation
    public boolean isCancelled() {
        return task.isCancelled();
    }

    /** False once the task's code has run twice: the check that has to hold at every point. */
    @Operation
    public boolean ranAtMostOnce() {
        return runs <= 1;
    }

    /**
     * The task: run starts it unless cancelled; cancel succeeds only before it starts. What a
     * task shows while its code is still running (not done, not cancellable, not yet counted)
     * has no sequential counterpart, so the operations leave it out: run returns nothing, and
     * the runs are only checked never to pass one.
     */
    public static final class Spec {
        private boolean started;
        private boolean cancelled;

        public void run() {
            if (!cancelled) {
                started = true;
            }
        }

        public boolean cancel() {
            if (cancelled || started) {
                return false;
            }
            cancelled = true;
            return true;
        }

        public boolean isCancelled() {
            return cancelled;
        }

        public boolean ranAtMostOnce() {
            return true;
        }

        @Override
        public boolean equals(Object other) {
            return other instanceof Spec that && started == that.started && cancelled == that.cancelled;
        }

        @Override
        public int hashCode() {
            return (started ? 2 : 0) + (cancelled ? 1 : 0);
        }
    }

    /** The checked platform, whose started threads are handed back unstarted: no worker ever runs. */
    static final class UnstartedThreads extends ForwardingPlatform {
        UnstartedThreads(Platform checked) {
            super(checked);
        }

        @Override
        public Thread startThread(String name, Runnable task) {
            return new Thread(task, name);
        }

        @Override
        public int nextRandom(int bound) {
            return 0;
        }
    }

    /** run's CAS from NEW to RUNNING made a plain write: two callers that see NEW both run the code. */
    static final Mutation RUN_TWICE = Mutation.casToPlainSet(Task.class, "run", "STATE");

    /*
     * No operations before the parallel part, here and in the timed-wait configuration: the task is
     * one-shot, and with Lincheck's default of five generated operations there (a fixed seed) nearly
     * every scenario's task was run or cancelled before any two operations could race.
     */
    static ModelCheckingOptions modelCheckingOptions() {
        return LincheckBudget.modelChecking().sequentialSpecification(Spec.class).actorsBefore(0);
    }

    static StressOptions stressOptions() {
        return LincheckBudget.stress().sequentialSpecification(Spec.class).actorsBefore(0);
    }

    @Test
    public void modelChecking() {
        modelCheckingOptions().check(getClass());
    }

    @Test
    public void stress() {
        stressOptions().check(getClass());
    }

    /** Three callers of run (or cancel) at once. */
    @Test
    public void threeThreadsModelChecking() {
        LincheckBudget.threeThreads(modelCheckingOptions()).check(getClass());
    }

    @Test
    public void plantedRunTwiceModelChecking() {
        Planted.assertCaught(modelCheckingOptions(), getClass(), RUN_TWICE);
    }

    /**
     * PIT's survivors at run's and cancel's CAS (impl/MUTATION.md, thirteenth measurement): the CAS's
     * result ignored, so a caller that read NEW goes on after another caller changed the state (run's
     * code runs twice; a cancel succeeds on a task already running). Caught only since the suite runs
     * nothing before the parallel part.
     */
    static Stream<Mutation> casResultIgnored() {
        return Stream.of(Mutation.branchAlwaysTaken(Task.class, "run", "IFNE", 1),
                Mutation.branchAlwaysTaken(Task.class, "cancel", "IFNE", 1));
    }

    @ParameterizedTest
    @MethodSource("casResultIgnored")
    void shouldCatchEachOfPitsCasSurvivorsWhenModelChecked(Mutation survivor) {
        Planted.assertCaught(modelCheckingOptions(), getClass(), survivor);
    }

    // No stress counterpart: at the CI budget (10 x 1,000) the stress run missed this mutant (checked): the
    // window is the few instructions between run's read of NEW and its write of RUNNING, before the
    // task's code runs, and no operation of this test widens it.

    /** A timed wait's length, in ticks of {@link TickingClock}: a few rounds of the event's timed wait. */
    static final long WAIT_TICKS = 16;

    /**
     * The task's timed wait beside run and cancel, on a clock that ticks once per read
     * ({@link TickingClock}), so that a wait nobody ends times out after a few rounds, and without the
     * spin before blocking ({@code spin=none}: one look at the task, then the completion event). What a
     * timed wait answers has no sequential counterpart while another caller's run is still inside the
     * task's code (a second run returns at once, and a wait then times out on a task not yet done), so
     * the operation checks the wait's own promises and reports {@code true} when it kept them: it answered
     * "done" and the task is done, or it answered "timed out" once its time was up. It reports
     * {@code false} for "done" on a task that is not, and {@code null} for "timed out" before the
     * deadline had passed.
     */
    public static class TimedAwait {
        private final TickingClock clock = new TickingClock();
        private final Task<Integer> task = newPool(clock, Tuning.current().with(Knob.SPIN, SpinPolicy.NONE))
                .submit(() -> 1);

        @Operation
        public void run() {
            task.run();
        }

        @Operation
        public boolean cancel() {
            return task.cancel(false);
        }

        @Operation
        public Boolean await() throws InterruptedException {
            long start = clock.nanoTime();
            if (task.await(WAIT_TICKS, TimeUnit.NANOSECONDS)) {
                return task.isDone();
            }
            return clock.nanoTime() - start > WAIT_TICKS ? Boolean.TRUE : null;
        }
    }

    /** {@link TimedAwait}'s counterpart: run and cancel as {@link Spec}; every wait keeps its promises. */
    public static final class TimedAwaitSpec {
        private final Spec task = new Spec();

        public void run() {
            task.run();
        }

        public boolean cancel() {
            return task.cancel();
        }

        public Boolean await() {
            return Boolean.TRUE;
        }

        @Override
        public boolean equals(Object other) {
            return other instanceof TimedAwaitSpec that && task.equals(that.task);
        }

        @Override
        public int hashCode() {
            return task.hashCode();
        }
    }

    /**
     * No operations before the parallel part: the task is one-shot, and Lincheck's default five
     * operations before it (a fixed seed) ran or cancelled the task in every scenario of the budget, so
     * no wait ever met a task still new.
     */
    static ModelCheckingOptions timedAwaitOptions() {
        return LincheckBudget.modelChecking().sequentialSpecification(TimedAwaitSpec.class).actorsBefore(0);
    }

    @Test
    public void timedAwaitModelChecking() {
        timedAwaitOptions().check(TimedAwait.class);
    }

    @Test
    public void timedAwaitThreeThreadsModelChecking() {
        LincheckBudget.threeThreads(timedAwaitOptions()).check(TimedAwait.class);
    }

    /**
     * PIT's survivor at the wait's re-check (impl/MUTATION.md, thirteenth measurement): a wait that finds
     * the task done after creating the completion event reports a time-out, long before its deadline.
     * The task must complete between the wait's look and that re-check.
     */
    static final Mutation TIMED_OUT_WHEN_DONE = Mutation.returnsFalse(Task.class, "awaitNanos", 3);

    @Test
    public void plantedTimedOutWhenDoneModelChecking() {
        Planted.assertCaught(timedAwaitOptions(), TimedAwait.class, TIMED_OUT_WHEN_DONE);
    }

    /**
     * An untimed wait ({@code join}) beside the run that completes the task, as one custom scenario (a
     * generated one could hold a join with no run beside it, which waits for good by design): the wait
     * must return the task's value in every interleaving, the lost wake-up PIT's survivor at the wait's
     * re-check (L258) would cause included. Without the spin before blocking, on {@link TickingClock}.
     */
    public static class UntimedJoin {
        private final Task<Integer> task = newPool(new TickingClock(), Tuning.current().with(Knob.SPIN,
                SpinPolicy.NONE)).submit(() -> 1);

        @Operation
        public void run() {
            task.run();
        }

        @Operation
        public Integer join() {
            return task.join();
        }
    }

    /** {@link UntimedJoin}'s counterpart: the join returns the value the run computed. */
    public static final class UntimedJoinSpec {
        public void run() {
        }

        public Integer join() {
            return 1;
        }
    }

    /** Only the custom scenario {@code join ∥ run}, for {@code testClass} (the real class or a mutant's copy). */
    static ModelCheckingOptions untimedJoinOptions(Class<?> testClass) {
        try {
            Actor join = new Actor(testClass.getMethod("join"), List.of());
            Actor run = new Actor(testClass.getMethod("run"), List.of());
            return LincheckBudget.modelChecking().iterations(0).sequentialSpecification(UntimedJoinSpec.class)
                    .addCustomScenario(new ExecutionScenario(List.of(), List.of(List.of(join), List.of(run)),
                            List.of(), null));
        } catch (NoSuchMethodException e) {
            throw new IllegalStateException(e);
        }
    }

    @Test
    public void untimedJoinModelChecking() {
        untimedJoinOptions(UntimedJoin.class).check(UntimedJoin.class);
    }

    /** PIT's survivor at the wait's re-check (impl/MUTATION.md, thirteenth measurement): the re-check skipped. */
    static final Mutation RECHECK_SKIPPED = Mutation.branchAlwaysTaken(Task.class, "awaitNanos", "IFEQ", 3);

    @Test
    public void plantedRecheckSkippedModelChecking() {
        Planted.assertCaught(TaskLinearizabilityTest::untimedJoinOptions, UntimedJoin.class, RECHECK_SKIPPED);
    }
}
