package io.spinlab.impl.pool;

import io.spinlab.impl.lock.MonitorLock;
import io.spinlab.impl.spin.SpinContext;
import io.spinlab.model.platform.Platform;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.Objects;

/**
 * The semaphore idle pool workers wait on: the equivalent of .NET's
 * {@code LowLevelLifoSemaphore}. A waiter first spins (registered as a <em>spinner</em>),
 * then blocks; blocked waiters are woken newest first (LIFO), so that the same few threads
 * stay warm while the rest sleep and can time out. {@link #release(int)} prefers spinners: it
 * wakes a blocked waiter only for signals that the spinners present cannot take.
 *
 * <p>All four counters (signals, waiters, spinners, waiters signaled to wake) live in one
 * 64-bit word updated by CAS, so every decision sees them together.
 *
 * <p>Progress: {@link #tryAcquire()} and {@link #release(int)} are lock-free (release takes a
 * short internal lock only to wake blocked waiters); {@link #await} blocks. Linearizable as a
 * counting semaphore for its non-blocking operations.
 */
public final class LifoSemaphore {
    /*
     * Implementation notes.
     *
     * Counts word (one long):
     *   bits 0..31   signals available (unsigned, at most maximumSignalCount)
     *   bits 32..47  waiters: threads registered to block (blocked, or about to)
     *   bits 48..55  spinners: threads spinning for a signal (at most 255)
     *   bits 56..63  waiters signaled to wake and not yet run (saturates at 255)
     * .NET's stored copy puts the last field at byte 8, outside the CAS'd word; here it is byte 7
     * so that all four change atomically.
     *
     * Invariants: a thread is counted as a spinner or as a waiter (never both) from its
     * registering CAS to its unregistering CAS; a signal is taken only by a CAS that also
     * unregisters the taker. release() asks the OS layer to wake
     *   min(signals after release, waiters + spinners) − spinners − signaledToWake
     * threads (capped at the released count): spinners see signals without being woken.
     *
     * Blocking layer (.NET: an OS semaphore with LIFO wake order): a stack of parked threads
     * and a count of wake-ups that found no parked thread, guarded by a MonitorLock. A waiter
     * that times out removes itself under the lock; if it was already popped, it counts as
     * woken (it does not lose the wake-up). A woken waiter re-checks the counts: if a spinner
     * took its signal it waits again.
     *
     * Linearization points: a successful acquire at the CAS that lowers signals; release at
     * the CAS that raises them; a failed tryAcquire at its read of the counts.
     *
     * Spin/wait policy (LowLevelSpinWaiter): spin iteration i < 10, or odd i − 10, spins
     * min(2^i, optimal max) normalized yields; the other iterations Sleep(0); never Sleep(1).
     * On a single processor spinning starts at iteration 10 (Sleep(0) and PAUSE alternate).
     *
     * Why not simpler: a FIFO semaphore wakes the thread that has slept longest, whose caches
     * are cold, and keeps every worker alive; LIFO lets surplus workers time out.
     */

    static final long SIGNAL_MASK = 0xFFFF_FFFFL;
    static final int WAITER_SHIFT = 32;
    static final long WAITER_ONE = 1L << WAITER_SHIFT;
    static final long WAITER_MASK = 0xFFFFL << WAITER_SHIFT;
    static final int SPINNER_SHIFT = 48;
    static final long SPINNER_ONE = 1L << SPINNER_SHIFT;
    static final long SPINNER_MASK = 0xFFL << SPINNER_SHIFT;
    static final int SIGNALED_TO_WAKE_SHIFT = 56;
    static final long SIGNALED_TO_WAKE_ONE = 1L << SIGNALED_TO_WAKE_SHIFT;
    /** Most threads that may block at once. */
    public static final int MAX_WAITERS = 0xFFFF;
    static final int MAX_SPINNERS = 0xFF;
    static final int MAX_SIGNALED_TO_WAKE = 0xFF;
    /** Spin iterations before Sleep(0) starts interleaving ({@code SpinSleep0Threshold}). */
    static final int SPIN_SLEEP0_THRESHOLD = 10;
    /** The pool's default spin count ({@code SemaphoreSpinCountDefaultBaseline}). */
    public static final int DEFAULT_SPIN_COUNT = 70;

    private final SpinContext context;
    private final int maximumSignalCount;
    private final int spinCount;
    private final PaddedCounts counts;
    private final LifoWaiters waiters;

    /**
     * @param initialSignalCount signals available at the start, 0..maximumSignalCount
     * @param maximumSignalCount the most signals the semaphore may hold, 1..Integer.MAX_VALUE
     * @param spinCount spin iterations before blocking (0 = block at once)
     */
    public LifoSemaphore(SpinContext context, int initialSignalCount, int maximumSignalCount, int spinCount) {
        if (maximumSignalCount < 1) {
            throw new IllegalArgumentException("maximumSignalCount = " + maximumSignalCount
                    + " is out of range; allowed 1.." + Integer.MAX_VALUE);
        }
        if (initialSignalCount < 0 || initialSignalCount > maximumSignalCount) {
            throw new IllegalArgumentException("initialSignalCount = " + initialSignalCount
                    + " is out of range; allowed 0.." + maximumSignalCount + " (maximumSignalCount)");
        }
        if (spinCount < 0) {
            throw new IllegalArgumentException("spinCount = " + spinCount + " is negative; allowed 0 or more");
        }
        this.context = Objects.requireNonNull(context, "context");
        this.maximumSignalCount = maximumSignalCount;
        this.spinCount = spinCount;
        this.counts = new PaddedCounts(initialSignalCount);
        this.waiters = new LifoWaiters(context, this);
    }

    // ---------------------------------------------------------------- packed counts

    static int signals(long c) {
        return (int) (c & SIGNAL_MASK);
    }

    static int waiterCount(long c) {
        return (int) ((c & WAITER_MASK) >>> WAITER_SHIFT);
    }

    static int spinnerCount(long c) {
        return (int) ((c & SPINNER_MASK) >>> SPINNER_SHIFT);
    }

    static int signaledToWake(long c) {
        return (int) (c >>> SIGNALED_TO_WAKE_SHIFT);
    }

    private boolean casCounts(long expected, long next) {
        return COUNTS.compareAndSet(counts, expected, next);
    }

    /** Signals available now. */
    public int signalCount() {
        return signals(counts.value);
    }

    /** Threads registered to block (a snapshot). */
    public int waiterCount() {
        return waiterCount(counts.value);
    }

    /** Threads spinning for a signal (a snapshot). */
    public int spinnerCount() {
        return spinnerCount(counts.value);
    }

    // ---------------------------------------------------------------- acquire

    /** Takes a signal if one is available now. */
    public boolean tryAcquire() {
        for (;;) {
            long c = counts.value;
            if (signals(c) == 0) {
                return false; // LP (failure)
            }
            // LP: the CAS that takes a signal.
            if (casCounts(c, c - 1)) {
                return true;
            }
        }
    }

    /**
     * Waits for a signal, spinning first if {@code spinWait}, for at most {@code timeoutNanos}
     * (negative = no limit, 0 = only try). Interruption does not end the wait (the pool's
     * workers are woken by signals, as .NET's); the interrupt status is kept for the caller.
     *
     * @return true if a signal was taken, false on timeout
     */
    public boolean await(long timeoutNanos, boolean spinWait) {
        int spins = spinWait ? spinCount : 0;
        long c = counts.value;
        for (;;) {
            long next;
            if (signals(c) != 0) {
                next = c - 1;
            } else if (timeoutNanos == 0) {
                return false;
            } else if (spins > 0 && spinnerCount(c) < MAX_SPINNERS) {
                next = c + SPINNER_ONE;
            } else {
                next = addWaiter(c);
            }
            long witness = (long) COUNTS.compareAndExchange(counts, c, next);
            if (witness == c) {
                if (signals(c) != 0) {
                    return true;
                }
                if (waiterCount(next) != waiterCount(c)) {
                    return waitForSignal(timeoutNanos);
                }
                break;
            }
            c = witness;
        }
        return spinThenWait(spins, timeoutNanos);
    }

    private static long addWaiter(long c) {
        if (waiterCount(c) == MAX_WAITERS) {
            throw new IllegalStateException("too many waiters: at most " + MAX_WAITERS + " threads may block");
        }
        return c + WAITER_ONE;
    }

    private boolean spinThenWait(int spins, long timeoutNanos) {
        Platform platform = context.platform();
        boolean singleProcessor = context.singleProcessor();
        context.beginSpinLoop();
        for (int i = singleProcessor ? SPIN_SLEEP0_THRESHOLD : 0; i < spins; i++) {
            spinOnce(i, singleProcessor, platform);
            long c = counts.value;
            while (signals(c) > 0) {
                // LP: the CAS that takes a signal and unregisters the spinner.
                long witness = (long) COUNTS.compareAndExchange(counts, c, c - 1 - SPINNER_ONE);
                if (witness == c) {
                    return true;
                }
                c = witness;
            }
        }
        long c = counts.value;
        for (;;) {
            long next = c - SPINNER_ONE;
            next = signals(c) != 0 ? next - 1 : addWaiter(next);
            long witness = (long) COUNTS.compareAndExchange(counts, c, next);
            if (witness == c) {
                return signals(c) != 0 || waitForSignal(timeoutNanos);
            }
            c = witness;
        }
    }

    /** {@code LowLevelSpinWaiter.Wait}: PAUSE with back-off, Sleep(0) interleaved from index 10. */
    private void spinOnce(int index, boolean singleProcessor, Platform platform) {
        if (!singleProcessor && (index < SPIN_SLEEP0_THRESHOLD || ((index - SPIN_SLEEP0_THRESHOLD) & 1) != 0)) {
            int optimalMax = context.normalizer().optimalMaxNormalizedYieldsPerSpinIteration();
            int n = index < 30 ? Math.min(1 << index, optimalMax) : optimalMax;
            context.spinWait(n);
        } else {
            platform.sleep(0);
        }
    }

    /** Registered as a waiter: block until woken with a signal available, or time out. */
    private boolean waitForSignal(long timeoutNanos) {
        Platform platform = context.platform();
        long deadline = timeoutNanos > 0 ? platform.nanoTime() + timeoutNanos : 0L;
        for (;;) {
            long remaining = timeoutNanos < 0 ? -1 : deadline - platform.nanoTime();
            if (timeoutNanos > 0 && remaining <= 0 || !waiters.await(remaining)) {
                // Timed out: a timed-out thread has not consumed a wake-up (LifoWaiters).
                COUNTS.getAndAdd(counts, -WAITER_ONE);
                return false;
            }
            long c = counts.value;
            for (;;) {
                assert waiterCount(c) != 0;
                long next = c;
                if (signals(c) != 0) {
                    next = next - 1 - WAITER_ONE;
                }
                if (signaledToWake(c) != 0) {
                    next -= SIGNALED_TO_WAKE_ONE;
                }
                long witness = (long) COUNTS.compareAndExchange(counts, c, next);
                if (witness == c) {
                    if (signals(c) != 0) {
                        return true; // LP: the CAS above, which took the signal
                    }
                    break; // a spinner took it: wait again
                }
                c = witness;
            }
        }
    }

    // ---------------------------------------------------------------- release

    /**
     * Adds {@code releaseCount} signals, waking blocked waiters for those that the spinners
     * present cannot take.
     *
     * @throws IllegalArgumentException if {@code releaseCount} is not positive
     * @throws IllegalStateException if the signals would exceed the maximum (nothing changes)
     */
    public void release(int releaseCount) {
        if (releaseCount <= 0) {
            throw new IllegalArgumentException("releaseCount = " + releaseCount + " is not positive");
        }
        long c = counts.value;
        for (;;) {
            if (releaseCount > maximumSignalCount - signals(c)) {
                throw new IllegalStateException("release(" + releaseCount + ") would exceed the maximum of "
                        + maximumSignalCount + " signals (now " + signals(c) + ")");
            }
            long next = c + releaseCount;
            int spinners = spinnerCount(c);
            long wakeable = Math.min((long) signals(next), (long) waiterCount(c) + spinners);
            int toWake = (int) (wakeable - spinners - signaledToWake(c));
            if (toWake > 0) {
                toWake = Math.min(toWake, releaseCount);
                int newSignaled = Math.min(MAX_SIGNALED_TO_WAKE, signaledToWake(c) + toWake);
                next = (next & ~(0xFFL << SIGNALED_TO_WAKE_SHIFT)) | ((long) newSignaled << SIGNALED_TO_WAKE_SHIFT);
            }
            // LP: the CAS that adds the signals.
            long witness = (long) COUNTS.compareAndExchange(counts, c, next);
            if (witness == c) {
                if (toWake > 0) {
                    waiters.wake(toWake);
                }
                return;
            }
            c = witness;
        }
    }

    @Override
    public String toString() {
        long c = counts.value;
        return "LifoSemaphore[signals=" + signals(c) + ", waiters=" + waiterCount(c) + ", spinners="
                + spinnerCount(c) + ", signaledToWake=" + signaledToWake(c) + "]";
    }

    // ---------------------------------------------------------------- machinery

    /*
     * Padding: the counts word is CAS'd by every waiter and releaser; alone on its 128-byte
     * span it does not share a line with the semaphore's final fields, read on every call.
     * Chain: CountsPad1 → CountsField → PaddedCounts (the last adds the trailing pad).
     */

    abstract static class CountsPad1 {
        long p00, p01, p02, p03, p04, p05, p06, p07, p08, p09, p10, p11, p12, p13, p14, p15;
    }

    abstract static class CountsField extends CountsPad1 {
        volatile long value;
    }

    static final class PaddedCounts extends CountsField {
        long p16, p17, p18, p19, p20, p21, p22, p23, p24, p25, p26, p27, p28, p29, p30, p31;

        PaddedCounts(long initial) {
            this.value = initial;
        }
    }

    /**
     * The blocking layer: parked threads in a LIFO stack plus wake-ups that found nobody
     * parked yet (a waiter registered in the counts may not have reached the stack).
     */
    static final class LifoWaiters {
        private final Platform platform;
        private final MonitorLock lock;
        private final Object blocker;
        /** Guarded by lock. */
        private Node top;
        /** Wake-ups not yet consumed by a parked thread; guarded by lock. */
        private int pendingWakes;

        LifoWaiters(SpinContext context, Object blocker) {
            this.platform = context.platform();
            this.lock = new MonitorLock(context, blocker);
            this.blocker = blocker;
        }

        static final class Node {
            final Thread thread;
            volatile boolean woken;
            Node prev;
            Node next;
            boolean linked;

            Node(Thread thread) {
                this.thread = thread;
            }
        }

        /**
         * Blocks until woken or {@code timeoutNanos} passes (negative = no limit).
         *
         * @return true if woken, false on timeout
         */
        boolean await(long timeoutNanos) {
            Node node;
            lock.enter();
            try {
                if (pendingWakes > 0) {
                    pendingWakes--;
                    return true;
                }
                node = new Node(Thread.currentThread());
                node.next = top;
                if (top != null) {
                    top.prev = node;
                }
                top = node;
                node.linked = true;
            } finally {
                lock.exit();
            }
            long deadline = timeoutNanos > 0 ? platform.nanoTime() + timeoutNanos : 0L;
            boolean interrupted = false;
            try {
                while (!node.woken) {
                    // An interrupt would make every park return at once: note it, wait on, re-assert it.
                    if (Thread.interrupted()) {
                        interrupted = true;
                    }
                    if (timeoutNanos < 0) {
                        platform.park(blocker);
                    } else {
                        long remaining = deadline - platform.nanoTime();
                        if (remaining <= 0) {
                            return !unlinkIfWaiting(node);
                        }
                        platform.parkNanos(blocker, remaining);
                    }
                }
                return true;
            } finally {
                if (interrupted) {
                    Thread.currentThread().interrupt();
                }
            }
        }

        /** @return true if the node was still waiting and is now removed (a real timeout) */
        private boolean unlinkIfWaiting(Node node) {
            lock.enter();
            try {
                if (!node.linked) {
                    return false;
                }
                if (node.prev == null) {
                    top = node.next;
                } else {
                    node.prev.next = node.next;
                }
                if (node.next != null) {
                    node.next.prev = node.prev;
                }
                node.linked = false;
                return true;
            } finally {
                lock.exit();
            }
        }

        /** Wakes up to {@code n} parked threads, newest first; the rest are remembered. */
        void wake(int n) {
            Node woken = null;
            lock.enter();
            try {
                for (int i = 0; i < n; i++) {
                    Node node = top;
                    if (node == null) {
                        pendingWakes += n - i;
                        break;
                    }
                    top = node.next;
                    if (top != null) {
                        top.prev = null;
                    }
                    node.linked = false;
                    node.next = woken;
                    woken = node;
                }
            } finally {
                lock.exit();
            }
            while (woken != null) {
                Node following = woken.next;
                // a release store (mono: a plain store under the semaphore's mutex); the unpark
                // that follows makes it visible before the waiter can run
                WOKEN.setRelease(woken, true);
                platform.unpark(woken.thread);
                woken = following;
            }
        }
    }

    // VarHandle mechanics
    private static final VarHandle COUNTS;
    private static final VarHandle WOKEN;

    static {
        try {
            COUNTS = MethodHandles.lookup().findVarHandle(CountsField.class, "value", long.class);
            WOKEN = MethodHandles.lookup().findVarHandle(LifoWaiters.Node.class, "woken", boolean.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }
}
