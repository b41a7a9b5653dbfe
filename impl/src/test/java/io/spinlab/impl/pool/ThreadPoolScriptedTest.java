package io.spinlab.impl.pool;

import io.spinlab.impl.testing.ScriptedPlatform;
import io.spinlab.model.tuning.ThreadRequestPolicy;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowable;

/**
 * The thread pool on a {@link ScriptedPlatform}: the pool's workers and gate thread are not started
 * but handed to the test, which runs each one's body when the scenario says (one party at a time; a
 * worker's item or a park may run another thread, nested). So submission, thread requests, worker
 * start, dispatch, stealing, idle retirement, starvation injection, shutdown and termination are seen
 * as one sequence of platform calls, with the clock moving only at timed parks (a worker's idle wait
 * of {@value #IDLE_NS} ns, the gate's interval of {@value #GATE_NS} ns) or when a scenario moves it.
 * Idle workers do not spin (semaphore spin count 0); between two requests a worker logs
 * {@code sleep(0), pause(1)} (WorkerDoWork). {@code nextRandom} answers 0: a stealing worker looks at
 * the first registered worker first.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class ThreadPoolScriptedTest {
    private static final long START_NS = 1_000_000;
    private static final long IDLE_NS = 7_000;
    private static final long GATE_NS = 500;

    /** A worker's idle wait that times out: deadlines and remaining time read, one timed park, a last look. */
    private static final List<String> IDLE_WAIT_TIMES_OUT =
            List.of("clock", "clock", "clock", "clock", "parkNanos(7000)", "clock");

    private final ScriptedPlatform platform = new ScriptedPlatform(4, START_NS);
    private final List<String> ran = new ArrayList<>();

    @AfterEach
    void clearInterrupt() {
        Thread.interrupted();
    }

    private ThreadPool.Builder builder(ThreadRequestPolicy policy, int min, int max) {
        return ThreadPool.builder(platform.context("current")).name("p").minWorkers(min).maxWorkers(max)
                .idleTimeout(IDLE_NS, TimeUnit.NANOSECONDS).gateInterval(GATE_NS, TimeUnit.NANOSECONDS)
                .semaphoreSpinCount(0).requestPolicy(policy);
    }

    private ThreadPool pool(ThreadRequestPolicy policy, int min, int max) {
        return builder(policy, min, max).build();
    }

    /** An item that records its name and the thread that ran it. */
    private Runnable item(String name) {
        return () -> ran.add(name + "@" + Thread.currentThread().getName());
    }

    private List<String> callsSince(int n) {
        List<String> all = platform.calls();
        return all.subList(n, all.size());
    }

    /** The pool's live threads by name (the gate's only while its thread is alive, which a scripted one never is). */
    private static String threadNames(ThreadPool pool) {
        return pool.threads().stream().map(Thread::getName).toList().toString();
    }

    private static List<String> concat(List<String> a, List<String> b) {
        List<String> out = new ArrayList<>(a);
        out.addAll(b);
        return out;
    }

    @Test
    void shouldStartOneWorkerAndTheGateForTheFirstItemAndRetireTheWorkerAfterItsIdleTimeout() {
        ThreadPool pool = pool(ThreadRequestPolicy.PER_ITEM, 1, 2);

        pool.execute(item("a"));

        assertThat(platform.calls()).containsExactly("startThread(p-worker-0)", "startThread(p-gate)");
        assertThat(platform.threadsNotRun()).containsExactly("p-worker-0", "p-gate");
        assertThat(pool).hasToString("ThreadPool[p, running, pending=1, workers=1, processing=1, goal=1]");
        assertThat(ran).isEmpty();

        int n = platform.callCount();
        platform.runThread("p-worker-0");

        // Request 1: a (clock at the dispatch's start and after the item); a had asked for one more worker
        // (per item), at the goal, so request 2 finds nothing; then the idle wait times out and the worker retires.
        assertThat(callsSince(n)).containsExactlyElementsOf(concat(List.of("clock", "clock", "sleep(0)", "pause(1)"),
                IDLE_WAIT_TIMES_OUT));
        assertThat(ran).containsExactly("a@p-worker-0");
        assertThat(pool).hasToString("ThreadPool[p, running, pending=0, workers=0, processing=0, goal=1]");
        assertThat(platform.nanos()).isEqualTo(START_NS + IDLE_NS);
        assertThat(pool.isTerminated()).isFalse();
        assertThat(pool.threads()).isEmpty();
        assertThat(platform.pendingActions()).isZero();
    }

    @Test
    void shouldRunAWorkersOwnItemsNewestFirst() {
        ThreadPool pool = pool(ThreadRequestPolicy.PER_ITEM, 1, 1);
        pool.execute(() -> {
            item("a").run();
            pool.execute(item("b")); // from a worker: into its local queue
            pool.execute(item("c"));
            pool.execute(item("d"));
            assertThat(pool.pendingCount()).isEqualTo(4);
        });

        platform.runThread("p-worker-0");

        assertThat(ran).containsExactly("a@p-worker-0", "d@p-worker-0", "c@p-worker-0", "b@p-worker-0");
        assertThat(pool.stealCount()).isZero();
        assertThat(pool).hasToString("ThreadPool[p, running, pending=0, workers=0, processing=0, goal=1]");
    }

    /**
     * Worker 1 runs while worker 0 is inside item a, which queued b, c, d locally: it steals them oldest
     * first; worker 0 then finds its queue empty. Both retire after their idle timeouts, the goal stays at
     * the minimum of 2, and the pool keeps the steals of the workers that exited.
     */
    @Test
    void shouldLetAnotherWorkerStealTheOldestItemsFirst() {
        ThreadPool pool = pool(ThreadRequestPolicy.PER_ITEM, 2, 2);
        List<String> duringA = new ArrayList<>();
        pool.execute(() -> {
            item("a").run();
            pool.execute(item("b"));
            pool.execute(item("c"));
            pool.execute(item("d"));
            duringA.add(pool.toString());
            duringA.add(threadNames(pool));
            platform.runThread("p-worker-1");
            duringA.add(pool.toString());
            duringA.add(threadNames(pool));
            duringA.add("steals=" + pool.stealCount());
        });

        platform.runThread("p-worker-0");

        assertThat(ran).containsExactly("a@p-worker-0", "b@p-worker-1", "c@p-worker-1", "d@p-worker-1");
        assertThat(duringA).containsExactly("ThreadPool[p, running, pending=4, workers=2, processing=2, goal=2]",
                "[p-worker-0]", "ThreadPool[p, running, pending=1, workers=1, processing=1, goal=2]", "[p-worker-0]",
                "steals=3");
        assertThat(pool.stealCount()).isEqualTo(3);
        assertThat(pool).hasToString("ThreadPool[p, running, pending=0, workers=0, processing=0, goal=2]");
        assertThat(platform.nanos()).isEqualTo(START_NS + 2 * IDLE_NS);
    }

    /**
     * A dispatch that has run for a whole quantum (exactly 30 ms here) returns and serves the next item as a
     * new request, after the pause between requests.
     */
    @Test
    void shouldEndADispatchWhenItsQuantumIsUsedUp() {
        ThreadPool pool = pool(ThreadRequestPolicy.PER_ITEM, 1, 1);
        pool.execute(() -> {
            item("a").run();
            platform.setNanos(platform.nanos() + ThreadPool.DISPATCH_QUANTUM_NANOS);
        });
        pool.execute(item("b"));
        int n = platform.callCount();

        platform.runThread("p-worker-0");

        assertThat(ran).containsExactly("a@p-worker-0", "b@p-worker-0");
        assertThat(callsSince(n)).containsExactlyElementsOf(concat(List.of("clock", "clock", "sleep(0)", "pause(1)",
                "clock", "clock", "sleep(0)", "pause(1)", "sleep(0)", "pause(1)", "sleep(0)", "pause(1)"),
                IDLE_WAIT_TIMES_OUT));
    }

    /** Within the quantum, the same dispatch runs the next item: no pause between a and b. */
    @Test
    void shouldRunTheNextItemInTheSameDispatchWithinTheQuantum() {
        ThreadPool pool = pool(ThreadRequestPolicy.PER_ITEM, 1, 1);
        pool.execute(() -> {
            item("a").run();
            platform.setNanos(platform.nanos() + ThreadPool.DISPATCH_QUANTUM_NANOS - 1);
        });
        pool.execute(item("b"));
        int n = platform.callCount();

        platform.runThread("p-worker-0");

        assertThat(ran).containsExactly("a@p-worker-0", "b@p-worker-0");
        assertThat(callsSince(n)).containsExactlyElementsOf(concat(List.of("clock", "clock", "clock", "sleep(0)",
                "pause(1)", "sleep(0)", "pause(1)"), IDLE_WAIT_TIMES_OUT));
    }

    /** An interrupt an item leaves behind does not reach the next item (the pool is not stopping). */
    @Test
    void shouldClearAnInterruptLeftByAnEarlierItem() {
        ThreadPool pool = pool(ThreadRequestPolicy.PER_ITEM, 1, 1);
        List<Boolean> interrupted = new ArrayList<>();
        pool.execute(() -> Thread.currentThread().interrupt());
        pool.execute(() -> interrupted.add(Thread.currentThread().isInterrupted()));

        platform.runThread("p-worker-0");

        assertThat(interrupted).containsExactly(false);
    }

    /**
     * Per-item requests stop at the processor count (4): six items queued from outside make four requests,
     * and the first one served makes one more when it finds an item (the count back at 3, then 4 again). One
     * worker serves all five: it runs the six items in the first dispatch, and the other four find nothing
     * (one sleep(0), pause(1) before each).
     */
    @Test
    void shouldCapOutstandingRequestsAtTheProcessorCount() {
        ThreadPool pool = pool(ThreadRequestPolicy.PER_ITEM, 1, 1);
        for (String name : List.of("a", "b", "c", "d", "e", "f")) {
            pool.execute(item(name));
        }
        int n = platform.callCount();

        platform.runThread("p-worker-0");

        assertThat(ran).containsExactly("a@p-worker-0", "b@p-worker-0", "c@p-worker-0", "d@p-worker-0",
                "e@p-worker-0", "f@p-worker-0");
        assertThat(callsSince(n)).containsExactlyElementsOf(concat(List.of("clock", "clock", "clock", "clock", "clock",
                "clock", "clock", "sleep(0)", "pause(1)", "sleep(0)", "pause(1)", "sleep(0)", "pause(1)", "sleep(0)",
                "pause(1)"), IDLE_WAIT_TIMES_OUT));
    }

    @Test
    void shouldReportAFailingItemAndRunTheNextOnTheSameWorker() {
        List<String> errors = new ArrayList<>();
        ThreadPool pool = builder(ThreadRequestPolicy.PER_ITEM, 1, 1)
                .errorHandler((r, t) -> errors.add(t.getMessage() + "@" + Thread.currentThread().getName()))
                .build();
        pool.execute(() -> {
            throw new IllegalStateException("a failed");
        });
        pool.execute(item("b"));

        platform.runThread("p-worker-0");

        assertThat(errors).containsExactly("a failed@p-worker-0");
        assertThat(ran).containsExactly("b@p-worker-0");
        assertThat(pool.pendingCount()).isZero();
    }

    /**
     * Shut down with an item queued: new work is rejected, the worker runs the item, whose completion drains
     * the pool (it wakes the gate), and exits without waiting; the pool terminates once the gate has run and
     * stopped too.
     */
    @Test
    void shouldRunAcceptedWorkAfterShutdownAndTerminateWhenTheWorkerAndTheGateHaveExited() throws Exception {
        ThreadPool pool = pool(ThreadRequestPolicy.PER_ITEM, 1, 1);
        pool.execute(item("a"));

        pool.shutdown();

        assertThat(pool.isShutdown()).isTrue();
        assertThatThrownBy(() -> pool.execute(item("b"))).isInstanceOf(RejectedExecutionException.class);
        assertThat(pool).hasToString("ThreadPool[p, shutdown, pending=1, workers=1, processing=1, goal=1]");
        int n = platform.callCount();

        platform.runThread("p-worker-0");

        assertThat(ran).containsExactly("a@p-worker-0");
        // a's completion drains the pool; the request a added finds nothing; the worker sees "drained" and exits.
        assertThat(callsSince(n)).containsExactly("clock", "unpark(p-gate)", "clock", "sleep(0)", "pause(1)");
        assertThat(pool).hasToString("ThreadPool[p, shutdown, pending=0, workers=0, processing=0, goal=1]");
        assertThat(pool.isTerminated()).as("the gate is still running").isFalse();

        n = platform.callCount();
        platform.runThread("p-gate");

        assertThat(callsSince(n)).isEmpty();
        assertThat(pool.isTerminated()).isTrue();
        assertThat(pool.awaitTermination(0, TimeUnit.NANOSECONDS)).isTrue();
        assertThat(pool).hasToString("ThreadPool[p, terminated, pending=0, workers=0, processing=0, goal=1]");
    }

    /** An idle worker parked on the semaphore: shutdown gives it a wake-up, and it exits without dispatching. */
    @Test
    void shouldWakeAnIdleWorkerForExitWhenThePoolIsShutDownEmpty() {
        ThreadPool pool = pool(ThreadRequestPolicy.PER_ITEM, 1, 1);
        pool.execute(item("a"));
        platform.atNext("parkNanos(7000)", () -> {
            pool.shutdown();
            pool.shutdown(); // a second call changes nothing and wakes nobody again
            assertThat(pool).hasToString("ThreadPool[p, shutdown, pending=0, workers=1, processing=1, goal=1]");
        });
        int n = platform.callCount();

        platform.runThread("p-worker-0");

        assertThat(callsSince(n)).containsExactly("clock", "clock", "sleep(0)", "pause(1)", "clock", "clock", "clock",
                "clock", "parkNanos(7000)", "unpark(p-worker-0)", "unpark(p-gate)");
        assertThat(platform.nanos()).as("woken, not timed out").isEqualTo(START_NS);
        assertThat(pool).hasToString("ThreadPool[p, shutdown, pending=0, workers=0, processing=0, goal=1]");
        assertThat(pool.isTerminated()).isFalse();

        platform.runThread("p-gate");

        assertThat(pool.isTerminated()).isTrue();
    }

    /** shutdownNow with nothing queued finds the pool drained and wakes the idle worker for exit, as shutdown does. */
    @Test
    void shouldWakeAnIdleWorkerForExitOnShutdownNowWithNothingQueued() {
        ThreadPool pool = pool(ThreadRequestPolicy.PER_ITEM, 1, 1);
        pool.execute(item("a"));
        List<Runnable> returned = new ArrayList<>();
        platform.atNext("parkNanos(7000)", () -> returned.addAll(pool.shutdownNow()));
        int n = platform.callCount();

        platform.runThread("p-worker-0");

        assertThat(returned).isEmpty();
        assertThat(callsSince(n)).containsExactly("clock", "clock", "sleep(0)", "pause(1)", "clock", "clock", "clock",
                "clock", "parkNanos(7000)", "unpark(p-worker-0)", "unpark(p-gate)");
        assertThat(pool).hasToString("ThreadPool[p, stop, pending=0, workers=0, processing=0, goal=1]");
        platform.runThread("p-gate");
        assertThat(pool.isTerminated()).isTrue();
    }

    /** shutdownNow before any worker ran: both queued items come back in order, none runs, the pool terminates. */
    @Test
    void shouldReturnTheQueuedItemsOnShutdownNowAndRunNone() {
        ThreadPool pool = pool(ThreadRequestPolicy.PER_ITEM, 1, 1);
        Runnable a = item("a");
        Runnable b = item("b");
        pool.execute(a);
        pool.execute(b);

        assertThat(pool.shutdownNow()).containsExactly(a, b);

        // Taking the last pending items drains the pool: shutdownNow wakes the gate for exit.
        assertThat(platform.calls()).containsExactly("startThread(p-worker-0)", "startThread(p-gate)",
                "unpark(p-gate)");

        assertThat(pool).hasToString("ThreadPool[p, stop, pending=0, workers=1, processing=1, goal=1]");
        int n = platform.callCount();
        platform.runThread("p-worker-0");
        platform.runThread("p-gate");

        assertThat(ran).isEmpty();
        assertThat(callsSince(n)).isEmpty();
        assertThat(pool.isTerminated()).isTrue();
        assertThat(pool.workerCount()).isZero();
        // The worker exits at its first look ("drained") without taking the wake-up it was created with; the
        // pool drops that slot when it terminates.
        assertThat(pool).hasToString("ThreadPool[p, terminated, pending=0, workers=0, processing=0, goal=1]");
    }

    /** shutdownNow from inside an item takes the worker's queued items (oldest first) and interrupts it. */
    @Test
    void shouldDrainAWorkersLocalQueueAndInterruptItOnShutdownNow() {
        ThreadPool pool = pool(ThreadRequestPolicy.PER_ITEM, 1, 1);
        Runnable b = item("b");
        Runnable c = item("c");
        List<Object> seen = new ArrayList<>();
        pool.execute(() -> {
            item("a").run();
            pool.execute(b);
            pool.execute(c);
            seen.addAll(pool.shutdownNow());
            seen.add(Thread.currentThread().isInterrupted());
            seen.add(pool.pendingCount());
        });

        platform.runThread("p-worker-0");

        assertThat(seen).containsExactly(b, c, true, 1L);
        assertThat(ran).containsExactly("a@p-worker-0");
        assertThat(pool).hasToString("ThreadPool[p, stop, pending=0, workers=0, processing=0, goal=1]");
        platform.runThread("p-gate");
        assertThat(pool.isTerminated()).isTrue();
    }

    /**
     * The starvation gate's progress signal: the sum of the workers' started-items counters, which each item
     * raises once before it runs. Seen from inside each item, as the gate would read it at that moment.
     */
    @Test
    void shouldCountEachItemOnceBeforeItRunsForTheGatesProgressSignal() {
        ThreadPool pool = pool(ThreadRequestPolicy.PER_ITEM, 1, 1);
        List<Long> seen = new ArrayList<>();
        pool.execute(() -> seen.add(itemsStarted(pool)));
        pool.execute(() -> seen.add(itemsStarted(pool)));
        pool.execute(() -> seen.add(itemsStarted(pool)));

        platform.runThread("p-worker-0");

        assertThat(seen).containsExactly(1L, 2L, 3L);
    }

    private static long itemsStarted(ThreadPool pool) {
        long n = 0;
        for (PoolWorker w : pool.workers()) {
            n += w.started;
        }
        return n;
    }

    /**
     * The gate's first look only records progress (none started yet, none seen before); its second sees
     * requests waiting and still no item started, so it raises the goal to 2 and creates worker 1.
     */
    @Test
    void shouldInjectAWorkerWhenRequestsWaitAndNoItemStartedForAGateInterval() {
        ThreadPool pool = pool(ThreadRequestPolicy.PER_ITEM, 1, 2);
        pool.execute(item("a"));
        platform.atNext("parkNanos(500)", () -> {
            assertThat(pool).hasToString("ThreadPool[p, running, pending=1, workers=1, processing=1, goal=1]");
        });
        platform.atNext("parkNanos(500)", () -> { });
        platform.atNext("parkNanos(500)", platform::stopThread);
        int n = platform.callCount();

        platform.runThread("p-gate");

        assertThat(callsSince(n)).containsExactly("parkNanos(500)", "parkNanos(500)", "startThread(p-worker-1)",
                "parkNanos(500)");
        assertThat(pool).hasToString("ThreadPool[p, running, pending=1, workers=2, processing=2, goal=2]");
        assertThat(platform.threadsNotRun()).containsExactly("p-worker-0", "p-worker-1");

        platform.runThread("p-worker-1");
        platform.runThread("p-worker-0");

        assertThat(ran).containsExactly("a@p-worker-1");
        assertThat(pool).hasToString("ThreadPool[p, running, pending=0, workers=0, processing=0, goal=1]");
    }

    /**
     * The gate's first look only records progress even when one item has started already: here the gate
     * runs inside the first item, with the second item's request waiting, and its first look (one item
     * started, none seen before) must not count that as starvation; the second look, one interval later with
     * still one started, does. (PIT's survivor at the gate's sum, L113: a sum of -1 mistaken for "none seen
     * before" injected a worker at the first look.)
     */
    @Test
    void shouldNotInjectAtTheGatesFirstLookWhenOneItemStartedBeforeIt() {
        ThreadPool pool = pool(ThreadRequestPolicy.PER_ITEM, 1, 2);
        List<List<String>> gateCalls = new ArrayList<>();
        List<Throwable> failures = new ArrayList<>();
        pool.execute(() -> {
            try {
                firstItemRunsTheGate(pool, gateCalls);
            } catch (Throwable t) {
                failures.add(t);
            }
        });

        platform.runThread("p-worker-0");

        assertThat(failures).as("inside the first item").isEmpty();
        assertThat(gateCalls).containsExactly(List.of("parkNanos(500)", "parkNanos(500)", "startThread(p-worker-1)",
                "parkNanos(500)"));
        assertThat(ran).containsExactly("a@p-worker-0", "b@p-worker-0");
    }

    private void firstItemRunsTheGate(ThreadPool pool, List<List<String>> gateCalls) {
        ran.add("a@" + Thread.currentThread().getName());
        pool.execute(item("b"));
        assertThat(pool).hasToString("ThreadPool[p, running, pending=2, workers=1, processing=1, goal=1]");
        platform.atNext("parkNanos(500)", () -> { });
        platform.atNext("parkNanos(500)", () -> {
            assertThat(pool).as("after the first look").hasToString(
                    "ThreadPool[p, running, pending=2, workers=1, processing=1, goal=1]");
        });
        platform.atNext("parkNanos(500)", platform::stopThread);
        int n = platform.callCount();
        platform.runThread("p-gate");
        gateCalls.add(List.copyOf(callsSince(n)));
    }

    /**
     * The pool drains (shutdownNow takes a back) during the gate's second wait, with a's request still
     * waiting: the gate's look still finds starvation and raises the goal, but the worker it would create is
     * undone, as the pool is drained; the gate then stops, and the pool terminates when worker 0 exits.
     */
    @Test
    void shouldNotCreateAnInjectedWorkerOnceThePoolIsDrained() {
        ThreadPool pool = pool(ThreadRequestPolicy.PER_ITEM, 1, 2);
        Runnable a = item("a");
        pool.execute(a);
        List<Object> seen = new ArrayList<>();
        platform.atNext("parkNanos(500)", () -> seen.add(threadNames(pool)));
        platform.atNext("parkNanos(500)", () -> seen.addAll(pool.shutdownNow()));
        int n = platform.callCount();

        platform.runThread("p-gate");

        assertThat(seen).containsExactly("[p-gate]", a);
        assertThat(callsSince(n)).containsExactly("parkNanos(500)", "parkNanos(500)", "unpark(p-gate)");
        assertThat(pool).hasToString("ThreadPool[p, stop, pending=0, workers=1, processing=1, goal=2]");
        assertThat(platform.threadsNotRun()).containsExactly("p-worker-0");
        assertThat(pool.isTerminated()).isFalse();

        platform.runThread("p-worker-0");

        assertThat(ran).isEmpty();
        assertThat(pool.isTerminated()).isTrue();
    }

    /**
     * The pool is drained before the gate thread starts (the worker, run as soon as it is started, runs the
     * only item after a shutdown): the gate is never started, and the pool terminates as the request returns.
     */
    @Test
    void shouldNotStartTheGateForAPoolDrainedBeforeTheFirstRequestReturns() {
        // Cascading: the worker's lone item asks for no further worker (a per-item one would start the gate).
        ThreadPool pool = pool(ThreadRequestPolicy.CASCADING, 1, 1);
        platform.atNext("startThread(p-worker-0)", () -> {
            pool.shutdown();
            platform.runThread("p-worker-0");
        });

        pool.execute(item("a"));

        assertThat(ran).containsExactly("a@p-worker-0");
        assertThat(platform.calls()).containsExactly("startThread(p-worker-0)", "clock", "clock");
        assertThat(platform.threadsNotRun()).isEmpty();
        assertThat(pool.isTerminated()).isTrue();
    }

    @Test
    void shouldNotInjectAWorkerBeyondTheMaximum() {
        ThreadPool pool = pool(ThreadRequestPolicy.PER_ITEM, 1, 1);
        pool.execute(item("a"));
        platform.atNext("parkNanos(500)", () -> { });
        platform.atNext("parkNanos(500)", () -> { });
        platform.atNext("parkNanos(500)", platform::stopThread);
        int n = platform.callCount();

        platform.runThread("p-gate");

        assertThat(callsSince(n)).containsExactly("parkNanos(500)", "parkNanos(500)", "parkNanos(500)");
        assertThat(pool).hasToString("ThreadPool[p, running, pending=1, workers=1, processing=1, goal=1]");
    }

    /** No request waits (the worker took it and ran the item): the gate injects nothing, however long it waits. */
    @Test
    void shouldNotInjectAWorkerWhenNoRequestWaits() {
        ThreadPool pool = pool(ThreadRequestPolicy.PER_ITEM, 1, 2);
        pool.execute(item("a"));
        platform.runThread("p-worker-0");
        platform.atNext("parkNanos(500)", () -> { });
        platform.atNext("parkNanos(500)", () -> { });
        platform.atNext("parkNanos(500)", platform::stopThread);
        int n = platform.callCount();

        platform.runThread("p-gate");

        assertThat(callsSince(n)).containsExactly("parkNanos(500)", "parkNanos(500)", "parkNanos(500)");
        assertThat(pool).hasToString("ThreadPool[p, running, pending=0, workers=0, processing=0, goal=1]");
    }

    /**
     * Item a blocks its worker (played by running the gate inside it): requests wait (a asked for one more
     * worker, b's request is out) and no item starts, so the gate injects worker 1, which runs b.
     */
    @Test
    void shouldInjectAWorkerWhileTheOnlyWorkerIsBlockedInAnItem() {
        ThreadPool pool = pool(ThreadRequestPolicy.PER_ITEM, 1, 2);
        pool.execute(() -> {
            item("a").run();
            platform.atNext("parkNanos(500)", () -> { });
            platform.atNext("parkNanos(500)", () -> { });
            platform.atNext("parkNanos(500)", () -> platform.runThread("p-worker-1"));
            platform.atNext("parkNanos(500)", platform::stopThread);
            platform.runThread("p-gate");
        });
        pool.execute(item("b"));

        platform.runThread("p-worker-0");

        assertThat(ran).containsExactly("a@p-worker-0", "b@p-worker-1");
        assertThat(pool).hasToString("ThreadPool[p, running, pending=0, workers=0, processing=0, goal=1]");
    }

    /**
     * Cascading requests: two items queued from outside make one request; the woken worker sees more work
     * and passes a request on (creating worker 1) before it runs a; it then runs b itself, and worker 1
     * finds nothing and retires.
     */
    @Test
    void shouldPassOneRequestOnWhenAWorkerFindsMoreWorkWithCascadingRequests() {
        ThreadPool pool = pool(ThreadRequestPolicy.CASCADING, 2, 2);
        pool.execute(item("a"));
        pool.execute(item("b"));

        assertThat(platform.calls()).containsExactly("startThread(p-worker-0)", "startThread(p-gate)");
        int n = platform.callCount();

        platform.runThread("p-worker-0");

        assertThat(callsSince(n)).containsExactlyElementsOf(concat(List.of("startThread(p-worker-1)", "clock",
                "clock", "clock", "sleep(0)", "pause(1)"), IDLE_WAIT_TIMES_OUT));
        assertThat(ran).containsExactly("a@p-worker-0", "b@p-worker-0");
        assertThat(pool).hasToString("ThreadPool[p, running, pending=0, workers=1, processing=0, goal=2]");
        n = platform.callCount();

        platform.runThread("p-worker-1");

        assertThat(callsSince(n)).containsExactlyElementsOf(IDLE_WAIT_TIMES_OUT);
        assertThat(pool).hasToString("ThreadPool[p, running, pending=0, workers=0, processing=0, goal=2]");
    }

    /** Cascading requests with one item: the worker finds no more work and passes nothing on. */
    @Test
    void shouldNotPassARequestOnForALoneItemWithCascadingRequests() {
        ThreadPool pool = pool(ThreadRequestPolicy.CASCADING, 2, 2);
        pool.execute(item("a"));
        int n = platform.callCount();

        platform.runThread("p-worker-0");

        assertThat(callsSince(n)).containsExactlyElementsOf(concat(List.of("clock", "clock"), IDLE_WAIT_TIMES_OUT));
        assertThat(ran).containsExactly("a@p-worker-0");
        assertThat(platform.threadsNotRun()).containsExactly("p-gate");
        assertThat(pool).hasToString("ThreadPool[p, running, pending=0, workers=0, processing=0, goal=2]");
    }

    /**
     * A woken worker whose request another worker's own loop took (TakeActiveRequest finds none left) gives
     * its wake-up back without scanning, even with an item it could steal. Cascading requests, goal 3:
     * worker 0's item x queues y and z locally (one request: worker 1); worker 1 steals y, which queues v
     * (one more request: worker 2 created and signalled) and moves the clock a quantum on, ending worker 1's
     * dispatch; worker 1's loop then takes that request itself and runs v from its own queue, seeing no more
     * work of its own (nothing passed on). Inside v, worker 2 runs: no request is left, z waits in worker
     * 0's queue, and worker 2 only idles out; worker 1 steals z after v. A take at zero would have let worker
     * 2 scan, steal z and run it, and might count the requests below zero, hiding the next item's request.
     */
    @Test
    void shouldGiveAWakeUpBackWithoutScanningWhenAnotherWorkersLoopTookItsRequest() {
        ThreadPool pool = pool(ThreadRequestPolicy.CASCADING, 3, 3);
        List<Object> seen = new ArrayList<>();
        Runnable v = () -> {
            item("v").run();
            seen.add(pool.toString());
            seen.add(pool.hasRequests());
            int n = platform.callCount();
            platform.runThread("p-worker-2");
            seen.add(callsSince(n));
        };
        Runnable y = () -> {
            item("y").run();
            pool.execute(v); // worker 1's local queue: a request, worker 2 created for it
            platform.setNanos(platform.nanos() + ThreadPool.DISPATCH_QUANTUM_NANOS);
        };
        pool.execute(() -> {
            item("x").run();
            pool.execute(y); // worker 0's local queue: a request, worker 1 created for it
            pool.execute(item("z")); // the request is out: none more
            platform.runThread("p-worker-1");
        });

        platform.runThread("p-worker-0");

        assertThat(seen).containsExactly("ThreadPool[p, running, pending=3, workers=3, processing=3, goal=3]", false,
                IDLE_WAIT_TIMES_OUT);
        assertThat(ran).containsExactly("x@p-worker-0", "y@p-worker-1", "v@p-worker-1", "z@p-worker-1");
        assertThat(pool.stealCount()).isEqualTo(2);
        // Worker 0's dispatch, begun before y moved the clock, ended at the quantum too: its request created
        // worker 3, and worker 0's loop took it; worker 0 then took worker 3's wake-up itself and gave it back.
        assertThat(pool).hasToString("ThreadPool[p, running, pending=0, workers=1, processing=0, goal=3]");
        assertThat(platform.threadsNotRun()).containsExactly("p-gate", "p-worker-3");
        int n = platform.callCount();

        platform.runThread("p-worker-3");

        assertThat(callsSince(n)).containsExactlyElementsOf(IDLE_WAIT_TIMES_OUT);
        assertThat(pool).hasToString("ThreadPool[p, running, pending=0, workers=0, processing=0, goal=3]");

        pool.execute(item("c"));

        assertThat(pool.hasRequests()).as("c's request, counted from zero").isTrue();
        platform.runThread("p-worker-4");
        assertThat(ran).endsWith("c@p-worker-4");
        assertThat(pool.hasRequests()).isFalse();
    }

    /**
     * A worker dies of an {@code Error} inside the pool's own code (here at WorkerDoWork's {@code Sleep(0)},
     * with a request still waiting): it gives its processing slot back once (doWork's finally, which wakes an
     * idle worker for the waiting request) and a replacement takes its place among the existing workers, so
     * that wake-up is not lost. The replacement serves the waiting request and later work.
     */
    @Test
    void shouldReplaceAWorkerThatDiesInsideThePoolAndGiveItsSlotBackOnce() {
        ThreadPool pool = pool(ThreadRequestPolicy.PER_ITEM, 1, 2);
        pool.execute(item("a"));
        pool.execute(item("b"));
        Error planted = new Error("planted");
        platform.atNext("sleep(0)", () -> {
            throw planted;
        });
        int n = platform.callCount();

        assertThatThrownBy(() -> platform.runThread("p-worker-0")).isSameAs(planted);

        // Request 1 ran a and b; b's request waits, so doWork's finally gives the slot back and wakes an idle
        // worker for it: the replacement, started in the dead worker's place (existing stays 1).
        assertThat(callsSince(n)).containsExactly("clock", "clock", "clock", "sleep(0)", "startThread(p-worker-1)");
        assertThat(ran).containsExactly("a@p-worker-0", "b@p-worker-0");
        assertThat(pool).hasToString("ThreadPool[p, running, pending=0, workers=1, processing=1, goal=1]");
        assertThat(platform.threadsNotRun()).containsExactly("p-gate", "p-worker-1");

        pool.execute(item("c"));
        n = platform.callCount();
        platform.runThread("p-worker-1");

        // The replacement takes the pending wake-up without parking, serves the three requests left (c's
        // dispatch runs c; b's and c's find nothing), then idles out.
        assertThat(callsSince(n)).containsExactlyElementsOf(concat(List.of("clock", "clock", "sleep(0)", "pause(1)",
                "sleep(0)", "pause(1)", "sleep(0)", "pause(1)"), IDLE_WAIT_TIMES_OUT));
        assertThat(ran).containsExactly("a@p-worker-0", "b@p-worker-0", "c@p-worker-1");
        assertThat(pool).hasToString("ThreadPool[p, running, pending=0, workers=0, processing=0, goal=1]");
    }

    /**
     * The replacement for a worker that died cannot be started (the platform refuses the thread): the
     * failure is attached to the worker's own as suppressed, and the dead worker's count is lowered, so
     * the pool counts no worker that does not exist.
     */
    @Test
    void shouldLowerTheCountAndReportTheFailureWhenTheReplacementCannotStart() {
        ThreadPool pool = pool(ThreadRequestPolicy.PER_ITEM, 1, 2);
        pool.execute(item("a"));
        pool.execute(item("b"));
        Error planted = new Error("planted");
        OutOfMemoryError noThread = new OutOfMemoryError("unable to create native thread");
        platform.atNext("sleep(0)", () -> {
            throw planted;
        });
        platform.atNext("startThread(p-worker-1)", () -> {
            throw noThread;
        });

        assertThatThrownBy(() -> platform.runThread("p-worker-0")).isSameAs(planted);

        assertThat(planted.getSuppressed()).containsExactly(noThread);
        assertThat(pool.workerCount()).isZero();
        assertThat(pool.threads()).isEmpty();
        assertThat(ran).containsExactly("a@p-worker-0", "b@p-worker-0");
    }

    /**
     * A worker that dies inside the pool after shutdown drained it gets no replacement: its count is
     * lowered, and the pool terminates once the gate thread has seen the drain.
     */
    @Test
    void shouldNotReplaceAWorkerThatDiesAfterThePoolDrained() {
        ThreadPool pool = pool(ThreadRequestPolicy.PER_ITEM, 1, 2);
        pool.execute(item("a"));
        pool.execute(item("b"));
        Error planted = new Error("planted");
        platform.atNext("sleep(0)", () -> {
            pool.shutdown();
            throw planted;
        });
        int n = platform.callCount();

        assertThatThrownBy(() -> platform.runThread("p-worker-0")).isSameAs(planted);

        // shutdown (pending 0) wakes the gate for exit; doWork's finally re-adds a slot for b's waiting request
        // (processing 1), and no worker is started for it or for the dead one.
        assertThat(callsSince(n)).containsExactly("clock", "clock", "clock", "sleep(0)", "unpark(p-gate)");
        assertThat(platform.threadsNotRun()).containsExactly("p-gate");
        assertThat(pool).hasToString("ThreadPool[p, shutdown, pending=0, workers=0, processing=1, goal=1]");
        assertThat(pool.isTerminated()).isFalse();
        n = platform.callCount();

        platform.runThread("p-gate");

        assertThat(callsSince(n)).isEmpty();
        assertThat(pool.isTerminated()).isTrue();
        assertThat(pool).hasToString("ThreadPool[p, terminated, pending=0, workers=0, processing=0, goal=1]");
        assertThat(ran).containsExactly("a@p-worker-0", "b@p-worker-0");
    }

    /**
     * A worker dies inside the pool's code right after an item that queued work locally: the items left in
     * its queue move to the global queue with a request for them, in the order the dead worker would have run
     * them (newest first), and the replacement runs them.
     */
    @Test
    void shouldHandTheLocalItemsOfAWorkerThatDiesToTheGlobalQueue() {
        ThreadPool pool = pool(ThreadRequestPolicy.PER_ITEM, 1, 1);
        Error planted = new Error("planted");
        pool.execute(() -> {
            item("a").run();
            pool.execute(item("b")); // from a worker: into its local queue
            pool.execute(item("c"));
            // The dispatch's clock read after the item: the worker dies there, b and c still queued.
            platform.atNext("clock", () -> {
                throw planted;
            });
        });
        int n = platform.callCount();

        assertThatThrownBy(() -> platform.runThread("p-worker-0")).isSameAs(planted);

        assertThat(callsSince(n)).containsExactly("clock", "clock", "startThread(p-worker-1)");
        assertThat(ran).containsExactly("a@p-worker-0");
        assertThat(pool.pendingCount()).isEqualTo(2);
        assertThat(pool).hasToString("ThreadPool[p, running, pending=2, workers=1, processing=1, goal=1]");

        platform.runThread("p-worker-1");

        assertThat(ran).containsExactly("a@p-worker-0", "c@p-worker-1", "b@p-worker-1");
        assertThat(pool).hasToString("ThreadPool[p, running, pending=0, workers=0, processing=0, goal=1]");
    }

    /**
     * Cascading requests: a worker that dies with items in its local queue and no request out requests a
     * worker for them as it moves them to the global queue (per-item requests had already asked for each).
     * Worker 0's item y queues z locally (one request: worker 1) and g globally (the request is out: none
     * more). Worker 1 takes that request, finds g in the global queue before any steal, sees no more work
     * of its own (nothing passed on) and dies of an Error after g: no request is out while z waits. Then
     * worker 0 dies after y; its request for z wakes a replacement, which runs z, and the pool terminates
     * after a shutdown.
     */
    @Test
    void shouldRequestAWorkerForTheLocalItemsOfAWorkerThatDiesWithCascadingRequests() {
        ThreadPool pool = pool(ThreadRequestPolicy.CASCADING, 2, 2);
        Error workerOneDies = new Error("worker 1 dies");
        Error workerZeroDies = new Error("worker 0 dies");
        List<Object> seen = new ArrayList<>();
        pool.execute(() -> {
            item("y").run();
            pool.execute(item("z")); // worker 0's local queue: a request, worker 1 created for it
            pool.executeGlobal(() -> {
                item("g").run();
                platform.atNext("clock", () -> { // worker 1's clock read after g
                    throw workerOneDies;
                });
            });
            seen.add(catchThrowable(() -> platform.runThread("p-worker-1")));
            seen.add(pool.toString());
            seen.add(pool.hasRequests());
            platform.atNext("clock", () -> { // worker 0's clock read after y
                throw workerZeroDies;
            });
        });

        assertThatThrownBy(() -> platform.runThread("p-worker-0")).isSameAs(workerZeroDies);

        // Worker 2 replaces worker 1 and worker 3 worker 0 (existing stays 2); the request for z adds a processing
        // slot and a signal, and no thread, as existing already counts the replacements.
        assertThat(seen).containsExactly(workerOneDies,
                "ThreadPool[p, running, pending=2, workers=2, processing=1, goal=2]", false);
        assertThat(pool).hasToString("ThreadPool[p, running, pending=1, workers=2, processing=1, goal=2]");
        assertThat(platform.threadsNotRun()).containsExactly("p-gate", "p-worker-2", "p-worker-3");

        platform.runThread("p-worker-2");
        platform.runThread("p-worker-3");

        assertThat(ran).containsExactly("y@p-worker-0", "g@p-worker-1", "z@p-worker-2");
        assertThat(pool).hasToString("ThreadPool[p, running, pending=0, workers=0, processing=0, goal=2]");
        pool.shutdown();
        platform.runThread("p-gate");
        assertThat(pool.isTerminated()).isTrue();
    }

    /** executeGlobal from outside the pool requests a worker as execute does. */
    @Test
    void shouldStartAWorkerForGlobalWorkFromOutsideThePool() {
        ThreadPool pool = pool(ThreadRequestPolicy.PER_ITEM, 1, 1);

        pool.executeGlobal(item("a"));

        assertThat(platform.calls()).containsExactly("startThread(p-worker-0)", "startThread(p-gate)");
        platform.runThread("p-worker-0");
        assertThat(ran).containsExactly("a@p-worker-0");
    }

    /**
     * executeGlobal from a worker bypasses its local queue: global items run oldest first, after the
     * worker's own (local) items, where execute alone would run everything newest first.
     */
    @Test
    void shouldQueueGlobalWorkFromAWorkerBehindItsLocalItemsInSubmissionOrder() {
        ThreadPool pool = pool(ThreadRequestPolicy.PER_ITEM, 1, 1);
        pool.execute(() -> {
            item("a").run();
            pool.executeGlobal(item("b"));
            pool.executeGlobal(item("c"));
            pool.execute(item("d"));
        });

        platform.runThread("p-worker-0");

        assertThat(ran).containsExactly("a@p-worker-0", "d@p-worker-0", "b@p-worker-0", "c@p-worker-0");
        assertThatThrownBy(() -> {
            pool.shutdown();
            pool.executeGlobal(item("e"));
        }).isInstanceOf(RejectedExecutionException.class);
    }

    /** submit(Runnable): the task completes with null, or fails with what the runnable threw. */
    @Test
    void shouldCompleteASubmittedRunnableWithNullOrItsException() {
        ThreadPool pool = pool(ThreadRequestPolicy.PER_ITEM, 1, 1);
        IllegalStateException thrown = new IllegalStateException("from the runnable");

        Task<Void> ok = pool.submit(item("a"));
        Task<Void> failing = pool.submit((Runnable) () -> {
            throw thrown;
        });
        platform.runThread("p-worker-0");

        assertThat(ran).containsExactly("a@p-worker-0");
        assertThat(ok.isDone()).isTrue();
        assertThat(ok.isFailed()).isFalse();
        assertThat(ok.join()).isNull();
        assertThat(failing.isFailed()).isTrue();
        assertThat(failing.exception()).isSameAs(thrown);
    }

    /** The default error handler hands an item's exception to the worker thread's uncaught-exception handler. */
    @Test
    void shouldReportAnItemsExceptionToTheWorkersUncaughtExceptionHandlerByDefault() {
        ThreadPool pool = pool(ThreadRequestPolicy.PER_ITEM, 1, 1);
        List<String> reported = new ArrayList<>();
        pool.execute(() -> {
            Thread.currentThread().setUncaughtExceptionHandler((t, e) -> reported.add(t.getName() + ": " + e.getMessage()));
            throw new IllegalStateException("boom");
        });
        pool.execute(item("b"));

        platform.runThread("p-worker-0");

        assertThat(reported).containsExactly("p-worker-0: boom");
        assertThat(ran).containsExactly("b@p-worker-0");
    }
}
