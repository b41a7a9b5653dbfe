package io.spinlab.impl.pool;

import io.spinlab.impl.spin.SpinContext;
import io.spinlab.impl.testing.TestThreads;
import io.spinlab.model.tuning.Tuning;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicIntegerArray;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * What the pool promises with real threads, one subclass per configuration: each
 * {@code global-queue} value with per-item thread requests, and cascading thread requests
 * ({@link CascadingThreadPoolTest}). The two knobs are independent; see
 * {@code ThreadRequestsTest}.
 */
abstract class ThreadPoolContractTest {

    private static final AtomicInteger POOL_IDS = new AtomicInteger();

    private final List<ThreadPool> pools = new ArrayList<>();

    /** The tuning under test. */
    abstract Tuning tuning();

    ThreadPool.Builder builder() {
        return ThreadPool.builder(SpinContext.hardware().withTuning(tuning()))
                .name("test-pool-" + POOL_IDS.incrementAndGet());
    }

    ThreadPool track(ThreadPool pool) {
        pools.add(pool);
        return pool;
    }

    @AfterEach
    void shutDownPools() throws InterruptedException {
        for (ThreadPool pool : pools) {
            pool.shutdownNow();
            assertThat(pool.awaitTermination(10, TimeUnit.SECONDS)).as("terminated: " + pool).isTrue();
        }
    }

    @Test
    void shouldRunEveryItemExactlyOnceWhenSubmittersRace() throws Exception {
        ThreadPool pool = track(builder().build());
        int submitters = 4;
        int perSubmitter = 20_000;
        AtomicIntegerArray runs = new AtomicIntegerArray(submitters * perSubmitter);
        CountDownLatch start = new CountDownLatch(1);
        List<Thread> threads = new ArrayList<>();
        for (int s = 0; s < submitters; s++) {
            int base = s * perSubmitter;
            threads.add(Thread.ofPlatform().start(() -> {
                awaitQuietly(start);
                for (int i = 0; i < perSubmitter; i++) {
                    int index = base + i;
                    pool.execute(() -> runs.incrementAndGet(index));
                }
            }));
        }
        start.countDown();
        for (Thread t : threads) {
            t.join();
        }
        pool.shutdown();

        assertThat(pool.awaitTermination(30, TimeUnit.SECONDS)).isTrue();
        for (int i = 0; i < runs.length(); i++) {
            assertThat(runs.get(i)).as("runs of item " + i).isEqualTo(1);
        }
        assertThat(pool.pendingCount()).isZero();
    }

    @Test
    void shouldRunChainsSubmittedFromInsideWorkItemsExactlyOnce() throws Exception {
        ThreadPool pool = track(builder().build());
        int chains = 64;
        int depth = 200;
        AtomicInteger runs = new AtomicInteger();
        CountDownLatch done = new CountDownLatch(chains);
        for (int c = 0; c < chains; c++) {
            pool.execute(new ChainLink(pool, depth, runs, done));
        }

        assertThat(done.await(30, TimeUnit.SECONDS)).isTrue();
        assertThat(runs.get()).isEqualTo(chains * depth);
    }

    @Test
    void shouldRunNewestLocalItemFirstWhenWorkerSubmitsFromInsideItem() throws Exception {
        ThreadPool pool = track(builder().minWorkers(1).maxWorkers(1).build());
        ConcurrentLinkedQueue<String> order = new ConcurrentLinkedQueue<>();
        CountDownLatch done = new CountDownLatch(3);
        pool.execute(() -> {
            pool.execute(() -> {
                order.add("first-queued");
                done.countDown();
            });
            pool.execute(() -> {
                order.add("second-queued");
                done.countDown();
            });
            order.add("parent");
            done.countDown();
        });

        assertThat(done.await(10, TimeUnit.SECONDS)).isTrue();
        assertThat(order).containsExactly("parent", "second-queued", "first-queued");
    }

    @Test
    void shouldStealFromBusyWorkerWhenItsLocalQueueHoldsWork() throws Exception {
        ThreadPool pool = track(builder().minWorkers(2).maxWorkers(4).build());
        int children = 200;
        CountDownLatch childrenDone = new CountDownLatch(children);
        CountDownLatch parentDone = new CountDownLatch(1);
        pool.execute(() -> {
            for (int i = 0; i < children; i++) {
                pool.execute(childrenDone::countDown);
            }
            // The parent's worker is now busy: only other workers, by stealing, can run the children.
            awaitQuietly(childrenDone);
            parentDone.countDown();
        });

        assertThat(parentDone.await(30, TimeUnit.SECONDS)).isTrue();
        assertThat(pool.stealCount()).isGreaterThanOrEqualTo(children);
    }

    @Test
    void shouldInjectWorkerWhenQueuedWorkMakesNoProgress() throws Exception {
        ThreadPool pool = track(builder().minWorkers(1).maxWorkers(4)
                .gateInterval(20, TimeUnit.MILLISECONDS).build());
        CountDownLatch unblock = new CountDownLatch(1);
        CountDownLatch blockerDone = new CountDownLatch(1);
        pool.execute(() -> {
            awaitQuietly(unblock);
            blockerDone.countDown();
        });
        pool.execute(unblock::countDown);

        assertThat(blockerDone.await(10, TimeUnit.SECONDS)).isTrue();
        assertThat(pool.workerGoal()).isGreaterThanOrEqualTo(2);
    }

    @Test
    void shouldKeepWorkerAliveAndReportWhenItemThrows() throws Exception {
        ConcurrentLinkedQueue<Throwable> reported = new ConcurrentLinkedQueue<>();
        ThreadPool pool = track(builder().minWorkers(1).maxWorkers(1)
                .errorHandler((item, error) -> reported.add(error)).build());
        CountDownLatch after = new CountDownLatch(10);
        for (int i = 0; i < 10; i++) {
            int n = i;
            pool.execute(() -> {
                throw new IllegalStateException("boom " + n);
            });
            pool.execute(after::countDown);
        }

        assertThat(after.await(10, TimeUnit.SECONDS)).isTrue();
        assertThat(reported).hasSize(10).allMatch(e -> e instanceof IllegalStateException);
        assertThat(pool.workerCount()).isEqualTo(1);
    }

    @Test
    void shouldRunQueuedItemsAndRejectNewOnesWhenShutDown() throws Exception {
        ThreadPool pool = track(builder().minWorkers(1).maxWorkers(1).build());
        CountDownLatch gate = new CountDownLatch(1);
        AtomicInteger runs = new AtomicInteger();
        pool.execute(() -> awaitQuietly(gate));
        for (int i = 0; i < 100; i++) {
            pool.execute(runs::incrementAndGet);
        }

        pool.shutdown();
        assertThat(pool.isShutdown()).isTrue();
        assertThatThrownBy(() -> pool.execute(runs::incrementAndGet)).isInstanceOf(RejectedExecutionException.class);
        assertThat(pool.isTerminated()).isFalse();
        gate.countDown();

        assertThat(pool.awaitTermination(10, TimeUnit.SECONDS)).isTrue();
        assertThat(runs.get()).isEqualTo(100);
    }

    @Test
    void shouldReturnUnstartedItemsAndInterruptRunningOneWhenShutDownNow() throws Exception {
        ThreadPool pool = track(builder().minWorkers(1).maxWorkers(1).build());
        CountDownLatch running = new CountDownLatch(1);
        CountDownLatch never = new CountDownLatch(1);
        AtomicInteger interrupted = new AtomicInteger();
        AtomicInteger runs = new AtomicInteger();
        pool.execute(() -> {
            running.countDown();
            try {
                never.await();
            } catch (InterruptedException e) {
                interrupted.incrementAndGet();
            }
        });
        assertThat(running.await(10, TimeUnit.SECONDS)).isTrue();
        for (int i = 0; i < 100; i++) {
            pool.execute(runs::incrementAndGet);
        }

        List<Runnable> notStarted = pool.shutdownNow();

        assertThat(pool.awaitTermination(10, TimeUnit.SECONDS)).isTrue();
        assertThat(notStarted.size() + runs.get()).isEqualTo(100);
        assertThat(notStarted).hasSize(100);
        assertThat(interrupted.get()).isEqualTo(1);
    }

    @Test
    void shouldReportPendingStateAndRunStateWhenAnItemRunsAndThePoolShutsDown() throws Exception {
        ThreadPool pool = track(builder().build());
        assertThat(pool.isShutdown()).isFalse();
        assertThat(pool.isTerminated()).isFalse();
        assertThat(pool.awaitTermination(0, TimeUnit.SECONDS)).isFalse();
        assertThat(pool.pendingCount()).isZero();
        assertThat(pool.toString()).startsWith("ThreadPool[" + pool.name() + ", running, pending=0");
        CountDownLatch running = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);

        pool.execute(() -> {
            running.countDown();
            try {
                release.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
        assertThat(running.await(TestThreads.JOIN_SECONDS, TimeUnit.SECONDS)).isTrue();
        assertThat(pool.pendingCount()).as("a running item is still pending").isEqualTo(1);
        assertThat(pool.toString()).contains("pending=1");
        pool.shutdown();
        assertThat(pool.isShutdown()).isTrue();
        assertThat(pool.toString()).contains(", shutdown, ");
        assertThat(pool.isTerminated()).as("not while the item runs").isFalse();
        release.countDown();

        assertThat(pool.awaitTermination(TestThreads.JOIN_SECONDS, TimeUnit.SECONDS)).isTrue();
        assertThat(pool.pendingCount()).isZero();
        assertThat(pool.toString()).contains(", terminated, pending=0");
    }

    @Test
    void shouldTerminateAtOnceWhenShutDownIdle() throws Exception {
        ThreadPool pool = track(builder().build());

        pool.shutdown();

        assertThat(pool.awaitTermination(5, TimeUnit.SECONDS)).isTrue();
        assertThat(pool.isTerminated()).isTrue();
    }

    @Test
    void shouldLeaveNoThreadAliveWhenTerminated() throws Exception {
        ThreadPool pool = track(builder().minWorkers(2).maxWorkers(8)
                .gateInterval(20, TimeUnit.MILLISECONDS).build());
        String prefix = pool.name() + "-";
        CountDownLatch done = new CountDownLatch(1_000);
        for (int i = 0; i < 1_000; i++) {
            pool.execute(done::countDown);
        }
        assertThat(done.await(10, TimeUnit.SECONDS)).isTrue();
        List<Thread> poolThreads = threadsNamed(prefix);
        assertThat(poolThreads).isNotEmpty();

        pool.shutdown();
        assertThat(pool.awaitTermination(10, TimeUnit.SECONDS)).isTrue();

        for (Thread t : poolThreads) {
            t.join(5_000);
        }
        assertThat(threadsNamed(prefix)).as("threads still alive").isEmpty();
        assertThat(pool.workerCount()).isZero();
    }

    @Test
    void shouldRetireIdleWorkersWhenIdleTimeoutPasses() throws Exception {
        ThreadPool pool = track(builder().minWorkers(2).maxWorkers(2)
                .idleTimeout(50, TimeUnit.MILLISECONDS).build());
        CountDownLatch done = new CountDownLatch(100);
        for (int i = 0; i < 100; i++) {
            pool.execute(done::countDown);
        }
        assertThat(done.await(10, TimeUnit.SECONDS)).isTrue();

        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (pool.workerCount() > 0 && System.nanoTime() < deadline) {
            Thread.sleep(10);
        }
        assertThat(pool.workerCount()).isZero();
        CountDownLatch again = new CountDownLatch(1);
        pool.execute(again::countDown);
        assertThat(again.await(10, TimeUnit.SECONDS)).as("new workers start after retirement").isTrue();
    }

    @Test
    void shouldKeepProcessingAtTheGoalWhileItsWorkersBlockAndGoIdleAfter() throws Exception {
        ThreadPool pool = track(builder().minWorkers(2).maxWorkers(8).gateInterval(1, TimeUnit.HOURS)
                .idleTimeout(1, TimeUnit.HOURS).semaphoreSpinCount(0).build());
        String prefix = "ThreadPool[" + pool.name() + ", ";
        CountDownLatch started = new CountDownLatch(2);
        CountDownLatch release = new CountDownLatch(1);
        CountDownLatch quick = new CountDownLatch(3);
        for (int i = 0; i < 2; i++) {
            pool.execute(() -> {
                started.countDown();
                awaitQuietly(release);
            });
        }
        assertThat(started.await(TestThreads.JOIN_SECONDS, TimeUnit.SECONDS)).isTrue();
        for (int i = 0; i < 3; i++) {
            pool.execute(quick::countDown);
        }

        // No third worker while the goal is 2 and the gate (an hour away) has not injected one.
        assertThat(pool).hasToString(prefix + "running, pending=5, workers=2, processing=2, goal=2]");
        assertThat(pool.workerCount()).isEqualTo(2);
        release.countDown();
        assertThat(quick.await(TestThreads.JOIN_SECONDS, TimeUnit.SECONDS)).isTrue();
        awaitUntil(() -> pool.toString().equals(prefix + "running, pending=0, workers=2, processing=0, goal=2]"),
                pool);

        pool.shutdown();
        assertThat(pool.awaitTermination(TestThreads.JOIN_SECONDS, TimeUnit.SECONDS)).isTrue();
        assertThat(pool).hasToString(prefix + "terminated, pending=0, workers=0, processing=0, goal=2]");
    }

    @Test
    void shouldLowerTheGoalBackToTheMinimumWhenInjectedWorkersRetire() throws Exception {
        ThreadPool pool = track(builder().minWorkers(1).maxWorkers(4).gateInterval(20, TimeUnit.MILLISECONDS)
                .idleTimeout(50, TimeUnit.MILLISECONDS).build());
        CountDownLatch unblock = new CountDownLatch(1);
        CountDownLatch blockerDone = new CountDownLatch(1);
        pool.execute(() -> {
            awaitQuietly(unblock);
            blockerDone.countDown();
        });
        pool.execute(unblock::countDown); // runs only on a worker the gate injects
        assertThat(blockerDone.await(TestThreads.JOIN_SECONDS, TimeUnit.SECONDS)).isTrue();
        assertThat(pool.workerGoal()).isGreaterThanOrEqualTo(2);

        awaitUntil(() -> pool.workerCount() == 0, pool);

        assertThat(pool.workerGoal()).as("each retiring worker lowers the goal, never below the minimum")
                .isEqualTo(1);
    }

    /** Polls, bounded, for a state the pool reaches without the test doing anything more. */
    static void awaitUntil(java.util.function.BooleanSupplier condition, ThreadPool pool)
            throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(TestThreads.JOIN_SECONDS);
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() - deadline > 0) {
                throw new AssertionError("state not reached in " + TestThreads.JOIN_SECONDS + " s: " + pool);
            }
            Thread.sleep(1); // polling, bounded: not an ordering by time
        }
    }

    static List<Thread> threadsNamed(String prefix) {
        List<Thread> out = new ArrayList<>();
        for (Thread t : Thread.getAllStackTraces().keySet()) {
            if (t.getName().startsWith(prefix) && t.isAlive()) {
                out.add(t);
            }
        }
        return out;
    }

    static void awaitQuietly(CountDownLatch latch) {
        try {
            latch.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** A QUWI-style work item: queues the next link until the chain is deep enough. */
    static final class ChainLink implements Runnable {
        private final ThreadPool pool;
        private final int remaining;
        private final AtomicInteger runs;
        private final CountDownLatch done;

        ChainLink(ThreadPool pool, int remaining, AtomicInteger runs, CountDownLatch done) {
            this.pool = pool;
            this.remaining = remaining;
            this.runs = runs;
            this.done = done;
        }

        @Override
        public void run() {
            runs.incrementAndGet();
            if (remaining > 1) {
                pool.execute(new ChainLink(pool, remaining - 1, runs, done));
            } else {
                done.countDown();
            }
        }
    }
}
