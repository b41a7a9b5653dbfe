package io.spinlab.impl.lock;

import io.spinlab.impl.spin.SpinContext;
import io.spinlab.impl.testing.FixedPauseNormalizer;
import io.spinlab.model.platform.Platform;
import io.spinlab.model.tuning.Tuning;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * A platform on which the test thread plays every party of an entry protocol, one after another,
 * in the order the test scripts: each platform call is logged, and an action scheduled for the
 * n-th call runs inside it (a holder that releases during a waiter's park, a barging thread that
 * takes the lock during a woken waiter's spin, a clock that jumps at a deadline check). Nothing
 * ever blocks: a park returns after its action, as a spurious or signaled wake-up may; a timed park
 * without an action times out, moving the clock by its timeout; an untimed park without an action
 * would sleep forever, so it fails the test. The clock moves only when told.
 *
 * <p>Other waiters are "ghost" nodes whose threads never run: a test enqueues them as a parked
 * thread would be, sees whom a release unparks, and plays a ghost's part by calling the protocol's
 * wait loop with its node.
 */
final class ScriptedPlatform implements Platform {
    private final int processors;
    private final Thread me = Thread.currentThread();
    private final List<String> calls = new ArrayList<>();
    private final Map<Integer, Runnable> actions = new HashMap<>();
    private final List<Object> blockers = new ArrayList<>();
    private long nowNs;

    /**
     * @param processors what {@link #processorCount()} answers
     * @param startNs the clock's first reading
     */
    ScriptedPlatform(int processors, long startNs) {
        this.processors = processors;
        this.nowNs = startNs;
    }

    /** A context on this platform for {@code monitor}: one PAUSE per normalized yield, at most 7 per iteration. */
    SpinContext context(String monitor) {
        return SpinContext.of(this, Tuning.parse("current,monitor=" + monitor), new FixedPauseNormalizer());
    }

    /** Runs {@code action} inside the {@code call}-th logged call (1-based), after logging it. */
    void at(int call, Runnable action) {
        if (call <= calls.size() || actions.putIfAbsent(call, action) != null) {
            throw new IllegalArgumentException("call " + call + " is past or already scripted");
        }
    }

    /** Runs {@code action} inside the next logged call. */
    void atNextCall(Runnable action) {
        at(calls.size() + 1, action);
    }

    /**
     * The calls logged so far: {@code pause(n)}, {@code yield}, {@code clock}, {@code park},
     * {@code parkNanos(n)}, {@code unpark(name)} ({@code unpark(me)} for the test thread).
     */
    List<String> calls() {
        return List.copyOf(calls);
    }

    /** What each park and timed park so far was attributed to, in order. */
    List<Object> blockers() {
        return new ArrayList<>(blockers);
    }

    int callCount() {
        return calls.size();
    }

    /** Scripted actions whose call has not come (a scenario that ran as planned leaves none). */
    int pendingActions() {
        return actions.size();
    }

    void setNanos(long nanos) {
        nowNs = nanos;
    }

    long nanos() {
        return nowNs;
    }

    private boolean log(String call) {
        calls.add(call);
        Runnable action = actions.remove(calls.size());
        if (action == null) {
            return false;
        }
        action.run();
        return true;
    }

    @Override
    public int processorCount() {
        return processors;
    }

    @Override
    public long nanoTime() {
        log("clock");
        return nowNs;
    }

    @Override
    public void pause(int count) {
        if (count > 0) {
            log("pause(" + count + ")");
        }
    }

    @Override
    public void yieldThread() {
        log("yield");
    }

    @Override
    public void sleep(long nanos) {
        log("sleep(" + nanos + ")");
    }

    @Override
    public void park(Object blocker) {
        blockers.add(blocker);
        if (!log("park")) {
            throw new AssertionError("untimed park with nothing scripted to wake it, at call " + calls.size()
                    + ": " + calls);
        }
    }

    @Override
    public void parkNanos(Object blocker, long nanos) {
        blockers.add(blocker);
        if (!log("parkNanos(" + nanos + ")")) {
            nowNs += nanos;
        }
    }

    @Override
    public void unpark(Thread thread) {
        log("unpark(" + (thread == me ? "me" : thread.getName()) + ")");
    }

    @Override
    public Thread startThread(String name, Runnable task) {
        throw new UnsupportedOperationException("ScriptedPlatform runs one thread");
    }

    @Override
    public int nextRandom(int bound) {
        return 0;
    }

    // ---------------------------------------------------------------- protocol helpers

    /** The 30-iteration back-off of the barging lock's spins: PAUSE 1, 2, 4, then 7 (the fixed normalizer's cap). */
    static List<String> backoff(int iterations) {
        List<String> pauses = new ArrayList<>();
        for (int i = 0; i < iterations; i++) {
            pauses.add("pause(" + Math.min(1 << Math.min(i, 3), 7) + ")");
        }
        return pauses;
    }

    /**
     * Enqueues a waiter for an unstarted thread named {@code name}, counted as the protocol counts a
     * registered waiter ({@code waiterOne} added to the state word), as a thread parked in the queue.
     */
    static WaitQueue.Waiter enqueueGhost(EntryProtocol lock, int waiterOne, String name) {
        WaitQueue.Waiter ghost = new WaitQueue.Waiter(new Thread(() -> { }, name));
        lock.queue.lockGuard();
        try {
            EntryProtocol.STATE.getAndAdd(lock, waiterOne);
            lock.queue.addLast(ghost);
        } finally {
            lock.queue.unlockGuard();
        }
        return ghost;
    }

    /** The queued waiters' names, head first ({@code me} for the test thread); the queue is left as it was. */
    static List<String> queued(EntryProtocol lock) {
        Thread me = Thread.currentThread();
        List<WaitQueue.Waiter> nodes = new ArrayList<>();
        lock.queue.lockGuard();
        try {
            for (WaitQueue.Waiter w = lock.queue.pollFirst(); w != null; w = lock.queue.pollFirst()) {
                nodes.add(w);
            }
            nodes.forEach(lock.queue::addLast);
        } finally {
            lock.queue.unlockGuard();
        }
        return nodes.stream().map(w -> w.thread == me ? "me" : w.thread.getName()).toList();
    }
}
