package io.spinlab.impl.lock;

import io.spinlab.impl.testing.ScriptedPlatform;

import java.util.ArrayList;
import java.util.List;

/**
 * The lock tests' helpers for playing an entry protocol on a {@link ScriptedPlatform}: the expected
 * back-off schedule, and other waiters as "ghost" nodes whose threads never run: a test enqueues them
 * as a parked thread would be, sees whom a release unparks, and plays a ghost's part by calling the
 * protocol's wait loop with its node.
 */
final class EntryProtocolScripts {
    private EntryProtocolScripts() {
    }

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
