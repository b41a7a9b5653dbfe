package io.spinlab.properties.interleave.scenario;

import io.spinlab.impl.lock.MonitorLock;
import io.spinlab.impl.spin.SpinContext;
import io.spinlab.model.tuning.Tuning;
import io.spinlab.properties.interleave.Interleaving;
import io.spinlab.properties.interleave.Interleaving.Party;
import io.spinlab.properties.lincheck.CheckedContexts;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Races inside {@link MonitorLock}'s entry protocols that only an interleaving of single accesses
 * reaches (no platform call separates the two accesses another thread must come between), staged
 * exactly with {@link Interleaving}. Each scenario throws an {@link AssertionError} where the lock
 * breaks its contract: a lost wake-up (a waiter parked for good with the lock free) or two threads
 * inside it at once.
 *
 * <p>{@code MonitorLockInterleavingTest} runs each scenario on an instrumented copy of the real
 * classes, and on copies carrying the bugs PIT left alive ({@code impl/MUTATION.md}).
 */
public final class MonitorLockInterleavings {
    private static final long START_NANOS = 1_000_000_000L;
    private static final long STARVATION_NANOS = TimeUnit.MILLISECONDS.toNanos(100);
    private static final String LOCK_GUARD = "WaitQueue.lockGuard:GUARD";

    private MonitorLockInterleavings() {
    }

    /**
     * A timed entry times out just as the holder's release chooses it for the wake-up; the holder
     * barges back in, so the timed-out waiter finds the lock held; the holder releases again (the
     * wake-up being the timed waiter's, nobody else is woken) right between the waiter's finding and
     * its next read of the lock word. The waiter owns the wake-up, and the lock is free: it must take
     * the lock (it does, and its entry succeeds) or pass the wake-up on, or the untimed waiter behind
     * it stays parked for good.
     *
     * @param tuning {@code "current"} (the barging Monitor) or {@code "corert-2019-after"} (CoreRT's lock)
     * @param algorithm the entry protocol's class, whose {@code abandonWait} the waiter is in
     */
    public static void timedOutWaiterFindsTheLockFreedBetweenTwoLooks(String tuning, String algorithm) {
        try (Interleaving il = Interleaving.begin(1, START_NANOS)) {
            MonitorLock lock = new MonitorLock(context(il, tuning));
            AtomicBoolean timedEntered = new AtomicBoolean();
            Party holder = il.party("holder", () -> {
                lock.enter();
                Interleaving.reach("holder:entered");
                lock.exit();
                lock.enter();
                Interleaving.reach("holder:entered again");
                lock.exit();
            });
            Party timed = il.party("timed", () -> {
                if (lock.tryEnter(1_000, TimeUnit.NANOSECONDS)) {
                    timedEntered.set(true);
                    lock.exit();
                }
            });
            Party untimed = il.party("untimed", () -> {
                lock.enter();
                lock.exit();
            });
            holder.runUntil("holder:entered");
            timed.runUntilParked();
            untimed.runUntilParked();
            il.setNanoTime(START_NANOS + 2_000); // past the timed entry's deadline
            timed.runUntil(LOCK_GUARD); // timed out, saw no wake-up: it is about to leave the queue
            holder.runUntil("holder:entered again"); // the release dequeued and woke it; the holder barged in
            timed.runUntil(algorithm + ".abandonWait:state"); // it found the lock held, and looks again
            holder.runToEnd(); // the second release: the wake-up is the timed waiter's
            timed.runToEnd();
            untimed.runToEnd();
            if (!timedEntered.get()) {
                throw new AssertionError("the timed waiter gave up its wake-up although the lock was free");
            }
        }
    }

    /**
     * A spinner runs out of spins while the lock is held; the holder releases; the spinner unregisters
     * and sees the lock free, but a barging thread takes it before the spinner's CAS. The spinner's CAS
     * fails and it finds the lock held: it must queue (and is woken by the barger's release), not
     * report an entry.
     */
    public static void spinnerLosesTheFreedLockToABarger() {
        try (Interleaving il = Interleaving.begin(2, START_NANOS)) {
            MonitorLock lock = new MonitorLock(context(il, "current"));
            AtomicInteger inside = new AtomicInteger();
            Party holder = il.party("holder", () -> criticalSection(lock, inside, "holder:entered"));
            Party spinner = il.party("spinner", () -> criticalSection(lock, inside, "spinner:entered"));
            Party barger = il.party("barger", () -> criticalSection(lock, inside, "barger:entered"));
            String unregister = "BargingAwareLock.unregisterSpinnerAndTryLock:STATE";
            holder.runUntil("holder:entered");
            spinner.runUntil(unregister); // spun out with the lock held: about to unregister
            holder.runToEnd(); // no waiter queued: nobody to wake
            spinner.runUntil(unregister); // unregistered, saw the lock free: about to take it
            barger.runUntil("barger:entered");
            spinner.runUntilParked(); // its CAS failed and the lock is held: it queues
            barger.runToEnd();
            spinner.runToEnd();
        }
    }

    /**
     * Waiters have starved long enough that arriving threads no longer barge ahead of them (the
     * should-not-preempt bit), and a spinner registered before that spins out; the holder's release
     * wakes nobody (a spinner is registered to take the lock). The spinner unregisters and sees the
     * lock free, but another arrival queues before its CAS, which fails with the lock still free. The
     * spinner must try again and take it: were it to queue too, the lock would stay free with every
     * contender parked and nobody left to release it.
     */
    public static void spinnerRetriesWhenAWaiterQueuesBeforeItsCas() {
        try (Interleaving il = Interleaving.begin(2, START_NANOS)) {
            MonitorLock lock = new MonitorLock(context(il, "current"));
            AtomicInteger inside = new AtomicInteger();
            Party holder = il.party("holder", () -> criticalSection(lock, inside, "holder:entered"));
            Party first = il.party("first waiter", () -> criticalSection(lock, inside, null));
            Party spinner = il.party("spinner", () -> criticalSection(lock, inside, null));
            Party starving = il.party("arrival after the starvation limit", () -> criticalSection(lock, inside, null));
            Party late = il.party("late arrival", () -> criticalSection(lock, inside, null));
            String unregister = "BargingAwareLock.unregisterSpinnerAndTryLock:STATE";
            holder.runUntil("holder:entered");
            first.runUntilParked(); // spun out, queued: the waiters' starvation clock starts
            spinner.runUntil(unregister); // registered as a spinner before the limit; spun out
            il.setNanoTime(START_NANOS + STARVATION_NANOS + 1);
            starving.runUntilParked(); // sets the should-not-preempt bit, queues
            holder.runToEnd(); // a spinner is registered: the release wakes nobody
            spinner.runUntil(unregister); // unregistered, saw the lock free: about to take it
            late.runUntilParked(); // may not barge: queues, changing the lock word
            spinner.runToEnd(); // its CAS failed with the lock free: it must retry, enter, and wake the next
            first.runToEnd();
            starving.runToEnd();
            late.runToEnd();
        }
    }

    private static void criticalSection(MonitorLock lock, AtomicInteger inside, String entered) {
        lock.enter();
        if (inside.incrementAndGet() != 1) {
            throw new AssertionError(Thread.currentThread().getName() + " entered the lock while another held it");
        }
        if (entered != null) {
            Interleaving.reach(entered);
        }
        inside.decrementAndGet();
        lock.exit();
    }

    private static SpinContext context(Interleaving il, String tuning) {
        return SpinContext.of(il.platform(), Tuning.parse(tuning), CheckedContexts.FixedPauseNormalizer.INSTANCE);
    }
}
