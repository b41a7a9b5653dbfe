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
     * - The second spin, AwareLock::Contention: dwRepetitions rounds of {try; delay i - 1 PAUSEs;
     *   i *= 3} while i < dwMaximumDuration, each round ending in SwitchToThread; then block. Read
     *   only in an SSCLI-era copy of syncblk.cpp (find_string id 1475671507), which has the same
     *   rounds, delays and SwitchToThread; the 2017 CoreCLR copy was not found in the index. The
     *   2017 copy is described (the issue, and kouvel in dotnet/coreclr #11979) as also switching
     *   every 20,000 PAUSEs of a long delay while waiters exist; spinlab does that, unverified.
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
    /** The longest PAUSE run before checking for waiters (and switching if there are any). */
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
        if (!context.singleProcessor() && spin(deadline)) {
            return true;
        }
        return waitForHandoff(deadline, interruptible);
    }

    /** Both spin phases; false if the lock was not taken or the deadline passed. */
    private boolean spin(long deadline) {
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
            do {
                if (tryLock()) {
                    return true;
                }
                if (deadlinePassed(deadline)) {
                    return false;
                }
                delayWithSwitches(delay - 1);
                delay *= BACKOFF_FACTOR;
            } while (delay < maximumDuration);
            context.platform().yieldThread();
        }
        return false;
    }

    private void delayWithSwitches(long pauses) {
        long remaining = pauses;
        while (remaining > 0) {
            int chunk = (int) Math.min(remaining, DELAY_CHUNK);
            remaining -= chunk;
            context.platform().pause(chunk);
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
