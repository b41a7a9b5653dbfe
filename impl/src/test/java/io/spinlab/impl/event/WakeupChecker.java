package io.spinlab.impl.event;

import io.spinlab.impl.testing.TestThreads;

import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Supplier;

/**
 * Drives an event through many set/wait rounds with real threads, the MresWaitDrainRate
 * protocol: one setter sets the round's event, every waiter must see it, the last waiter resets
 * it and releases the setter through a second event. A lost wake-up shows as a waiter (or the
 * setter) whose timed wait expires; the checker reports which round and who.
 */
final class WakeupChecker {

    /** The event surface the checker needs. */
    interface EventUnderTest {
        void set();

        void reset();

        boolean await(long timeout, TimeUnit unit) throws InterruptedException;
    }

    private WakeupChecker() {
    }

    static EventUnderTest of(ManualResetEvent event) {
        return new EventUnderTest() {
            @Override
            public void set() {
                event.set();
            }

            @Override
            public void reset() {
                event.reset();
            }

            @Override
            public boolean await(long timeout, TimeUnit unit) throws InterruptedException {
                return event.await(timeout, unit);
            }
        };
    }

    /**
     * @return the first lost wake-up seen, or empty if every round completed
     */
    static Optional<String> run(Supplier<EventUnderTest> events, int waiters, int rounds, long awaitMillis)
            throws InterruptedException {
        EventUnderTest[] go = {events.get(), events.get()};
        EventUnderTest done = events.get();
        AtomicInteger arrived = new AtomicInteger();
        AtomicReference<String> failure = new AtomicReference<>();
        try (TestThreads threads = new TestThreads()) {
            threads.start("setter", () -> {
                for (int r = 0; r < rounds && failure.get() == null; r++) {
                    go[r & 1].set();
                    if (!done.await(awaitMillis, TimeUnit.MILLISECONDS)) {
                        failure.compareAndSet(null, "round " + r + ": the setter was never released");
                        return;
                    }
                    done.reset();
                }
            });
            for (int w = 0; w < waiters; w++) {
                int id = w;
                threads.start("waiter-" + w, () -> {
                    for (int r = 0; r < rounds && failure.get() == null; r++) {
                        if (!go[r & 1].await(awaitMillis, TimeUnit.MILLISECONDS)) {
                            failure.compareAndSet(null, "round " + r + ": waiter " + id + " never saw the set");
                            return;
                        }
                        if (arrived.incrementAndGet() == waiters * (r + 1)) {
                            go[r & 1].reset();
                            done.set();
                        }
                    }
                });
            }
            threads.joinAll();
        }
        return Optional.ofNullable(failure.get());
    }
}
