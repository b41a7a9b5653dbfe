package io.spinlab.sim.experiment;

import io.spinlab.model.machine.MachinePresets;
import io.spinlab.model.machine.MachineProfile;
import io.spinlab.model.tuning.Generation;
import io.spinlab.sim.workload.EventPipeStress;
import io.spinlab.sim.workload.SimulatedRun;
import io.spinlab.sim.workload.Workloads;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Rows that differ only in what their score counts share one simulation per tuning and seed, and
 * score exactly what each would have scored alone.
 */
class SharedRunsTest {

    private static final MachineProfile MACBOOK = MachinePresets.byName("kabylake-i7-7700hq");

    private static SharedRuns.Key key(String parameters, boolean right, long seed) {
        return new SharedRuns.Key(EventPipeStress.NAME, parameters, MACBOOK, right, seed);
    }

    @Test
    void shouldSimulateEachKeyOnce() {
        SharedRuns shared = new SharedRuns();
        AtomicInteger calls = new AtomicInteger();
        SimulatedRun first = shared.get(key("a", false, 1), () -> {
            calls.incrementAndGet();
            return null;
        });

        assertThat(first).isNull();
        shared.get(key("a", false, 1), () -> {
            throw new AssertionError("simulated twice");
        });
        shared.get(key("a", true, 1), () -> {
            calls.incrementAndGet();
            return null;
        });
        shared.get(key("a", false, 2), () -> {
            calls.incrementAndGet();
            return null;
        });
        shared.get(key("b", false, 1), () -> {
            calls.incrementAndGet();
            return null;
        });
        assertThat(calls).hasValue(4);
        assertThat(shared.simulated()).isEqualTo(4);
    }

    @Test
    void shouldMakeASecondCallerWaitForTheRunInProgress() throws Exception {
        SharedRuns shared = new SharedRuns();
        CountDownLatch started = new CountDownLatch(1);
        CountDownLatch finish = new CountDownLatch(1);
        AtomicInteger calls = new AtomicInteger();
        ExecutorService pool = Executors.newFixedThreadPool(2);
        try {
            Future<SimulatedRun> owner = pool.submit(() -> shared.get(key("a", false, 1), () -> {
                calls.incrementAndGet();
                started.countDown();
                await(finish);
                return null;
            }));
            assertThat(started.await(10, TimeUnit.SECONDS)).isTrue();
            Future<SimulatedRun> waiter = pool.submit(() -> shared.get(key("a", false, 1), () -> {
                calls.incrementAndGet();
                return null;
            }));
            Thread.sleep(50);
            assertThat(waiter).isNotDone();
            finish.countDown();
            owner.get(10, TimeUnit.SECONDS);
            waiter.get(10, TimeUnit.SECONDS);
            assertThat(calls).hasValue(1);
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void shouldGiveEveryCallerTheSimulationsFailure() {
        SharedRuns shared = new SharedRuns();
        IllegalStateException failure = new IllegalStateException("broken");

        assertThatThrownBy(() -> shared.get(key("a", false, 1), () -> {
            throw failure;
        })).isSameAs(failure);
        assertThatThrownBy(() -> shared.get(key("a", false, 1), () -> null)).isSameAs(failure);
    }

    /**
     * An experiment with a row per score of one EventPipe run: each row is exactly what it scores
     * alone (the sharing itself: the tests above).
     */
    @Test
    void shouldScoreEveryChoiceOfOneRunAsItsOwnRunWould() {
        String run = "threads=8,limit=1mb,reader-interval=0,warmup=200us,window=1ms";
        PlannedRow read = new PlannedRow(Workloads.create(EventPipeStress.NAME, run + ",score=read"), MACBOOK,
                Published.none(), 1);
        PlannedRow attempted = new PlannedRow(Workloads.create(EventPipeStress.NAME, run + ",score=attempted"),
                MACBOOK, Published.none(), 1);
        Experiment experiment = new Experiment("shared", "two scores of one run",
                Generation.NET5.tuning(), Generation.NET6.tuning(), List.of(read, attempted), List.of())
                .withSeeds(2).withWindowExtension(false);

        List<ExperimentRow> together = experiment.run(new ProgressListener() { }, 2);

        for (int i = 0; i < 2; i++) {
            ExperimentRow alone = experiment.runRow(List.of(read, attempted).get(i));
            ExperimentRow row = together.get(i);
            assertThat(row.parameters()).isEqualTo(alone.parameters());
            assertThat(row.leftScores()).isEqualTo(alone.leftScores());
            assertThat(row.rightScores()).isEqualTo(alone.rightScores());
            assertThat(row.leftMetrics()).isEqualTo(alone.leftMetrics());
            assertThat(row.failure()).isEmpty();
        }
        assertThat(together.get(1).rightScore()).isGreaterThan(together.get(0).rightScore());
    }

    private static void await(CountDownLatch latch) {
        try {
            assertThat(latch.await(10, TimeUnit.SECONDS)).isTrue();
        } catch (InterruptedException e) {
            throw new AssertionError(e);
        }
    }
}
