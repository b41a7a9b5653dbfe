package io.spinlab.impl.testing;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;

/**
 * Real threads for blocking-protocol tests: starts tasks, joins them with a generous bound,
 * and turns a hang or an exception in any task into a test failure with the thread's name,
 * instead of a hung build.
 */
public final class TestThreads implements AutoCloseable {

    /** A task that may throw anything. */
    @FunctionalInterface
    public interface Task {
        void run() throws Exception;
    }

    /** Bound on how long tests wait for threads: a hang detector, not a timing assertion. */
    public static final long JOIN_SECONDS = 60;

    private final List<Thread> threads = new ArrayList<>();
    private final ConcurrentLinkedQueue<Throwable> failures = new ConcurrentLinkedQueue<>();

    /** Starts {@code task} on a new daemon thread. */
    public Thread start(String name, Task task) {
        Thread thread = new Thread(() -> {
            try {
                task.run();
            } catch (Throwable t) {
                failures.add(new AssertionError(Thread.currentThread().getName() + " failed: " + t, t));
            }
        }, name);
        thread.setDaemon(true);
        threads.add(thread);
        thread.start();
        return thread;
    }

    /** Joins every thread; fails if one is still running after the bound or if any task threw. */
    public void joinAll() throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(JOIN_SECONDS);
        for (Thread thread : threads) {
            long left = deadline - System.nanoTime();
            thread.join(Math.max(1, TimeUnit.NANOSECONDS.toMillis(left)));
            if (thread.isAlive()) {
                StringBuilder stack = new StringBuilder();
                for (StackTraceElement e : thread.getStackTrace()) {
                    stack.append("\n\tat ").append(e);
                }
                throw new AssertionError(thread.getName() + " still running after " + JOIN_SECONDS + " s (hang?)"
                        + stack);
            }
        }
        rethrowFailures();
    }

    /** Fails now if any task has thrown so far (for a test that waits on its threads in a loop of its own). */
    public void rethrowFailures() {
        Throwable first = failures.peek();
        if (first != null) {
            AssertionError error = new AssertionError(failures.size() + " thread(s) failed; first: "
                    + first.getMessage(), first);
            failures.stream().skip(1).forEach(error::addSuppressed);
            throw error;
        }
    }

    /** Waits until {@code thread} is blocked (parked or waiting), or fails after the bound. */
    public static void awaitBlocked(Thread thread) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(JOIN_SECONDS);
        while (thread.getState() != Thread.State.WAITING && thread.getState() != Thread.State.TIMED_WAITING) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError(thread.getName() + " never blocked; state " + thread.getState());
            }
            Thread.sleep(1);
        }
    }

    @Override
    public void close() {
        for (Thread thread : threads) {
            if (thread.isAlive()) {
                thread.interrupt();
            }
        }
    }
}
