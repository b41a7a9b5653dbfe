package io.spinlab.impl.lock;

import io.spinlab.impl.spin.SpinContext;
import io.spinlab.model.tuning.MonitorPolicy;

/**
 * CoreCLR's AwareLock before dotnet/coreclr #14216 ({@code monitor=convoy}, .NET Core 2.0): a
 * contended thread spins raw PAUSEs in delays of 50, 150, 450, … while at most 20,000 × the
 * processor count, first once and then in ten rounds that each end in {@code SwitchToThread},
 * and only then blocks. While any thread waits, nobody else may take the lock (spinners keep
 * spinning, but cannot succeed); a release hands the lock to the first waiter, so every handoff
 * pays a wake-up: the lock convoy of dotnet/coreclr #13978.
 */
final class ConvoyAwareLock extends EntryProtocol {
    /*
     * Implementation notes.
     *
     * Sources (impl/GENERATION-SOURCES.md §4a, §4b):
     * - g_SpinConstants (dotnet/coreclr src/vm/syncblk.h @ 0768db2581c8b3f0cb92a8426b0a02926c8086ce):
     *   dwInitialDuration 50, dwMaximumDuration 20,000 × processors, dwBackoffFactor 3,
     *   dwRepetitions 10.
     * - The first spin, ObjHeader::EnterObjMonitorHelperSpin with
     *   AwareLock::SpinWaitAndBackOffBeforeOperation (pre-#14216 syncblk.inl, find_string id
     *   12298681869): while the delay is at most dwMaximumDuration, PAUSE that many times, multiply
     *   the delay by 3, retry the acquire. Delays 50 … 109,350 on 8 processors: 8 delays, 164,000 PAUSEs.
     * - The second spin, AwareLock::Contention (dotnet/coreclr src/vm/syncblk.cpp
 *   @ d18e0faf984fabe171f6dc0348ec9430744be0fa, whose syncblk.h still has m_MonitorHeld, i.e.
 *   before #14216): dwRepetitions passes; each pass starts the delay i at 50 and loops {TryEnter;
 *   on one processor give up spinning; past the timeout give up; delay i; i *= 3} while
 *   i < dwMaximumDuration, then SwitchToThread, unconditionally, once per pass; then block. A delay
 *   of i runs in chunks of at most 20,000, each chunk PAUSEing one fewer time than its size (a
 *   pre-decrement loop), with a SwitchToThread between two chunks only while waiters exist. On one
 *   processor a pass is one TryEnter and the SwitchToThread, and no further pass runs.
 *   (Earlier sessions read only an SSCLI-era copy; the d18e0faf copy settles the chunking.)
 * - EnterHelper takes the lock only when m_MonitorHeld == 0, i.e. never while a waiter exists
     *   (dotnet/coreclr #13978). Release signals the auto-reset event whenever waiters exist; the
     *   woken waiter takes the still-free lock. spinlab hands the lock over directly instead
     *   (LOCKED stays set): nobody else could have taken it in between, so the outcome is the same.
     *
     * State word: bit 0 LOCKED, bits 1..31 waiter count (m_MonitorHeld counts waiters in 2s).
     * Invariant (at every release of the queue's guard): waiters == queue.size, and waiters > 0
     * implies LOCKED.
     *
     * Linearization points: enter at the CAS 0 -> LOCKED or, for a waiter, at the releaser's
     * handoff; exit at the CAS LOCKED -> 0 or the handoff.
     */

    static final int WAITER_SHIFT = 1;
    static final int WAITER_ONE = 1 << WAITER_SHIFT;
    static final int MAX_WAITERS = -1 >>> WAITER_SHIFT;
    static final int INITIAL_DELAY = 50;
    static final int BACKOFF_FACTOR = 3;
    static final int MAXIMUM_DURATION_PER_PROCESSOR = 20_000;
    static final int REPETITIONS = 10;
    /** Contention's longest delay chunk before checking for waiters (and switching if there are any). */
    static final int DELAY_CHUNK = 20_000;

    private final long maximumDuration;

    ConvoyAwareLock(SpinContext context, Object blocker) {
        super(context, blocker);
        this.maximumDuration = (long) MAXIMUM_DURATION_PER_PROCESSOR * context.processorCount();
    }

    @Override
    MonitorPolicy policy() {
        return MonitorPolicy.CONVOY;
    }

    @Override
    boolean tryLock() {
        return state == 0 && STATE.compareAndSet(this, 0, LOCKED);
    }

    @Override
    boolean acquire(long deadline, boolean interruptible) throws InterruptedException {
        if (spin(deadline)) {
            return true;
        }
        return waitForHandoff(deadline, interruptible);
    }

    /** Both spin phases; false if the lock was not taken or the deadline passed. */
    private boolean spin(long deadline) {
        if (context.singleProcessor()) {
            // EnterObjMonitorHelperSpin does not spin on one processor; Contention's only pass is
            // one TryEnter and its SwitchToThread.
            if (tryLock()) {
                return true;
            }
            context.platform().yieldThread();
            return false;
        }
        for (long delay = INITIAL_DELAY; delay <= maximumDuration; delay *= BACKOFF_FACTOR) {
            context.platform().pause((int) delay);
            if (tryLock()) {
                return true;
            }
            if (deadlinePassed(deadline)) {
                return false;
            }
        }
        for (int round = 0; round < REPETITIONS; round++) {
            long delay = INITIAL_DELAY;
            boolean keepGoing = true;
            do {
                if (tryLock()) {
                    return true;
                }
                if (deadlinePassed(deadline)) {
                    keepGoing = false;
                    break;
                }
                delayInChunks(delay);
                delay *= BACKOFF_FACTOR;
            } while (delay < maximumDuration);
            context.platform().yieldThread();
            if (!keepGoing) {
                return false;
            }
        }
        return false;
    }

    /** Contention's delay of {@code delay}: chunks of at most 20,000, each one PAUSE short of its size. */
    private void delayInChunks(long delay) {
        long remaining = delay;
        while (remaining > 0) {
            int chunk = (int) Math.min(remaining, DELAY_CHUNK);
            remaining -= chunk;
            if (chunk > 1) {
                context.platform().pause(chunk - 1);
            }
            if (remaining > 0 && state >= WAITER_ONE) {
                context.platform().yieldThread();
            }
        }
    }

    private boolean waitForHandoff(long deadline, boolean interruptible) throws InterruptedException {
        WaitQueue.Waiter me = new WaitQueue.Waiter(Thread.currentThread());
        queue.lockGuard();
        try {
            for (;;) {
                int s = state;
                if (s == 0) {
                    if (STATE.compareAndSet(this, 0, LOCKED)) {
                        return true;
                    }
                } else {
                    checkWaiterRoom(s >>> WAITER_SHIFT, MAX_WAITERS);
                    if (STATE.compareAndSet(this, s, s + WAITER_ONE)) {
                        break;
                    }
                }
            }
            queue.addLast(me);
        } finally {
            queue.unlockGuard();
        }
        WaitQueue.Wake wake = await(me, deadline, interruptible);
        if (wake == WaitQueue.Wake.SIGNALED) {
            return true; // ownership was handed over with LOCKED still set
        }
        boolean removed;
        queue.lockGuard();
        try {
            removed = queue.remove(me);
            if (removed) {
                STATE.getAndAdd(this, -WAITER_ONE);
            }
        } finally {
            queue.unlockGuard();
        }
        if (!removed) {
            // The handoff raced with the timeout: the lock is ours.
            if (wake == WaitQueue.Wake.INTERRUPTED) {
                Thread.currentThread().interrupt();
            }
            return true;
        }
        if (wake == WaitQueue.Wake.INTERRUPTED) {
            throw new InterruptedException();
        }
        return false;
    }

    @Override
    void release() {
        for (;;) {
            int s = state;
            if (s == LOCKED) {
                // LP: the release when nobody waits.
                if (STATE.compareAndSet(this, LOCKED, 0)) {
                    return;
                }
                continue;
            }
            WaitQueue.Waiter next;
            queue.lockGuard();
            try {
                if (state == LOCKED) {
                    continue; // the last waiter timed out meanwhile
                }
                next = queue.pollFirst();
                assert next != null : "waiter count says a waiter is queued";
                // LP: ownership passes to `next`; LOCKED stays set.
                STATE.getAndAdd(this, -WAITER_ONE);
            } finally {
                queue.unlockGuard();
            }
            queue.signal(next);
            return;
        }
    }

    @Override
    int waiterCount() {
        return state >>> WAITER_SHIFT;
    }
}
