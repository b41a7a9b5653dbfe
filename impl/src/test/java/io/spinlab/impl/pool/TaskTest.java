package io.spinlab.impl.pool;

import io.spinlab.impl.spin.SpinContext;
import io.spinlab.impl.testing.TestThreads;
import io.spinlab.model.tuning.Knob;
import io.spinlab.model.tuning.SpinPolicy;
import io.spinlab.model.tuning.Tuning;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class TaskTest {

    private ThreadPool pool = pool(Tuning.current());

    private static ThreadPool pool(Tuning tuning) {
        return ThreadPool.builder(SpinContext.hardware().withTuning(tuning)).name("task-test").minWorkers(2).build();
    }

    @AfterEach
    void shutDown() throws InterruptedException {
        pool.shutdownNow();
        assertThat(pool.awaitTermination(10, TimeUnit.SECONDS)).isTrue();
    }

    @ParameterizedTest
    @EnumSource(SpinPolicy.class)
    void shouldReturnValueWhenJoinedWithEverySpinPolicy(SpinPolicy spin) throws InterruptedException {
        pool.shutdown();
        pool = pool(Tuning.current().with(Knob.SPIN, spin));
        CountDownLatch release = new CountDownLatch(1);
        Task<Integer> task = pool.submit(() -> {
            release.await();
            return 42;
        });
        Thread joiner = Thread.currentThread();
        try (TestThreads threads = new TestThreads()) {
            // Completes the task only once the joiner is blocked in join: the spin, then the wait, are exercised.
            threads.start("releaser", () -> {
                TestThreads.awaitBlocked(joiner);
                release.countDown();
            });

            assertThat(task.join()).isEqualTo(42);
            threads.joinAll();
        }
        assertThat(task.isDone()).isTrue();
    }

    @Test
    void shouldWrapExceptionWhenTaskFails() {
        Task<Integer> task = pool.submit(() -> {
            throw new IllegalStateException("boom");
        });

        assertThatThrownBy(task::join).isInstanceOf(CompletionException.class)
                .hasCauseInstanceOf(IllegalStateException.class);
        assertThatThrownBy(task::get).isInstanceOf(ExecutionException.class)
                .hasCauseInstanceOf(IllegalStateException.class);
        assertThat(task.isFailed()).isTrue();
        assertThat(task.exception()).hasMessage("boom");
    }

    @Test
    void shouldTimeOutWhenTaskIsNotDone() throws Exception {
        CountDownLatch release = new CountDownLatch(1);
        Task<Integer> task = pool.submit(() -> {
            release.await();
            return 1;
        });

        assertThat(task.await(20, TimeUnit.MILLISECONDS)).isFalse();
        assertThatThrownBy(() -> task.get(10, TimeUnit.MILLISECONDS)).isInstanceOf(TimeoutException.class);
        release.countDown();
        assertThat(task.get(10, TimeUnit.SECONDS)).isEqualTo(1);
    }

    @Test
    void shouldRunContinuationOnPoolWhenTaskCompletes() throws Exception {
        CountDownLatch release = new CountDownLatch(1);
        AtomicReference<String> continuationThread = new AtomicReference<>();
        Task<Integer> first = pool.submit(() -> {
            release.await();
            return 20;
        });
        Task<Integer> second = first.continueWith(t -> {
            continuationThread.set(Thread.currentThread().getName());
            return t.join() + 1;
        });
        release.countDown();

        assertThat(second.join()).isEqualTo(21);
        assertThat(continuationThread.get()).startsWith("task-test-worker-");
    }

    @Test
    void shouldScheduleContinuationAtOnceWhenAddedAfterCompletion() {
        Task<Integer> first = pool.submit(() -> 1);
        first.join();

        Task<String> second = first.continueWith(t -> "after " + t.join());

        assertThat(second.join()).isEqualTo("after 1");
    }

    @Test
    void shouldNeverRunWhenCancelledBeforeStart() throws Exception {
        CountDownLatch release = new CountDownLatch(1);
        ThreadPool single = ThreadPool.builder(SpinContext.hardware()).name("task-test-single")
                .minWorkers(1).maxWorkers(1).build();
        try {
            single.submit(() -> {
                release.await();
                return null;
            });
            AtomicBoolean ran = new AtomicBoolean();
            Task<Void> victim = single.submit(() -> ran.set(true));

            assertThat(victim.cancel(false)).isTrue();
            release.countDown();

            assertThatThrownBy(victim::join).isInstanceOf(CancellationException.class);
            assertThat(victim.isCancelled()).isTrue();
            single.shutdown();
            assertThat(single.awaitTermination(10, TimeUnit.SECONDS)).isTrue();
            assertThat(ran.get()).isFalse();
        } finally {
            single.shutdownNow();
        }
    }

    @Test
    void shouldFailContinuationWhenPoolRejectsIt() {
        CountDownLatch release = new CountDownLatch(1);
        Task<Integer> first = pool.submit(() -> {
            release.await();
            return 1;
        });
        Task<Integer> second = first.continueWith(t -> 2);
        pool.shutdown();
        release.countDown();

        assertThatThrownBy(second::join).isInstanceOf(CompletionException.class)
                .hasCauseInstanceOf(RejectedExecutionException.class);
    }
}
