package io.spinlab.impl.testing;

import io.spinlab.impl.spin.SpinContext;
import io.spinlab.model.tuning.Tuning;

import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;

/**
 * The hardware, watched: counts, per thread, the calls a waiting thread makes through the seam
 * (PAUSE, yield, sleep, park, the start of a spin-wait), so that a test can order threads by
 * what a thread was observed doing ("the waiter is waiting") instead of by sleeping. Also
 * records, per calling thread, which threads it unparked, so a test can count the wake-ups one
 * release issued.
 */
public final class WaitWatchingPlatform extends DelegatingPlatform {

    private final Map<Thread, Counts> counts = new ConcurrentHashMap<>();

    /** One thread's waiting calls; each count written by that thread only. */
    private static final class Counts {
        volatile long waits;
        volatile long parks;
        final List<Thread> unparked = new CopyOnWriteArrayList<>();
    }

    /** A context on this platform, with the hardware's PAUSE measurement. */
    public SpinContext context(Tuning tuning) {
        return SpinContext.of(this, tuning, SpinContext.hardware().normalizer());
    }

    private Counts mine() {
        return counts.computeIfAbsent(Thread.currentThread(), t -> new Counts());
    }

    private void waited() {
        Counts c = mine();
        c.waits = c.waits + 1;
    }

    private void parked() {
        Counts c = mine();
        c.waits = c.waits + 1;
        c.parks = c.parks + 1;
    }

    /** Waiting calls (pause, yield, sleep, park, beginSpinWait) {@code thread} has made. */
    public long waits(Thread thread) {
        Counts c = counts.get(thread);
        return c == null ? 0 : c.waits;
    }

    /** Parks (timed or not) {@code thread} has begun. */
    public long parks(Thread thread) {
        Counts c = counts.get(thread);
        return c == null ? 0 : c.parks;
    }

    /** The threads {@code caller} has unparked so far, in call order (repeats kept). */
    public List<Thread> unparkedBy(Thread caller) {
        Counts c = counts.get(caller);
        return c == null ? List.of() : List.copyOf(c.unparked);
    }

    /** Waits until {@code thread} has made a waiting call; fails after {@link TestThreads#JOIN_SECONDS}. */
    public void awaitWaiting(Thread thread) throws InterruptedException {
        awaitUntil(thread, () -> waits(thread) > 0, "never waited");
    }

    /**
     * Waits until {@code thread} has begun more than {@code parksBefore} parks and is blocked in
     * the last one (its state is WAITING or TIMED_WAITING); fails after the bound.
     */
    public void awaitParked(Thread thread, long parksBefore) throws InterruptedException {
        awaitUntil(thread, () -> parks(thread) > parksBefore && blocked(thread), "never parked");
    }

    private static boolean blocked(Thread thread) {
        Thread.State state = thread.getState();
        return state == Thread.State.WAITING || state == Thread.State.TIMED_WAITING;
    }

    private interface Condition {
        boolean holds();
    }

    private static void awaitUntil(Thread thread, Condition condition, String failure) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(TestThreads.JOIN_SECONDS);
        while (!condition.holds()) {
            if (!thread.isAlive()) {
                throw new AssertionError(thread.getName() + " ended before it was seen waiting");
            }
            if (System.nanoTime() - deadline > 0) {
                throw new AssertionError(thread.getName() + " " + failure + " in " + TestThreads.JOIN_SECONDS
                        + " s; state " + thread.getState());
            }
            Thread.sleep(1); // polling, bounded: not an ordering by time
        }
    }

    @Override
    public void pause(int count) {
        waited();
        super.pause(count);
    }

    @Override
    public void yieldThread() {
        waited();
        super.yieldThread();
    }

    @Override
    public void sleep(long nanos) {
        waited();
        super.sleep(nanos);
    }

    @Override
    public void park(Object blocker) {
        parked();
        super.park(blocker);
    }

    @Override
    public void parkNanos(Object blocker, long nanos) {
        parked();
        super.parkNanos(blocker, nanos);
    }

    @Override
    public void beginSpinWait(Object blocker) {
        waited();
        super.beginSpinWait(blocker);
    }

    @Override
    public void unpark(Thread thread) {
        mine().unparked.add(thread);
        super.unpark(thread);
    }
}
