package io.spinlab.impl.testing;

import io.spinlab.impl.spin.SpinContext;
import io.spinlab.model.platform.Platform;
import io.spinlab.model.tuning.Tuning;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A platform on which the test thread plays every party of a synchronization protocol, one after
 * another, in the order the test scripts: each platform call is logged, and an action scheduled for
 * the n-th call runs inside it (a holder that releases during a waiter's park, a barging thread that
 * takes the lock during a woken waiter's spin, a clock that jumps at a deadline check, a second
 * waiter that arrives while the first is parked). Nothing ever blocks: a park returns after its
 * action, as a spurious or signaled wake-up may; a timed park without an action times out, moving
 * the clock by its timeout; an untimed park without an action would sleep forever, so it fails the
 * test. The clock moves only when told.
 *
 * <p>Several waiters are played by nesting: the second waiter's whole call runs inside the first
 * one's park, and so on; a protocol's own test helpers may add "ghost" waiters whose threads never
 * run (the lock tests' {@code EntryProtocolScripts}).
 *
 * <p>Threads the code under test starts ({@link #startThread}, a pool's workers and gate) are not
 * started: the test runs each one's body when it chooses ({@link #runThread}), on its own real thread
 * while the caller waits, so that only one party runs at any time and {@code Thread.currentThread()}
 * answers for the thread being played.
 */
public final class ScriptedPlatform implements Platform {
    /** More calls than any scripted scenario makes: a runaway loop (a mutant's, say) fails instead of hanging. */
    private static final int MAX_CALLS = 1_000_000;

    private final int processors;
    private final Thread me = Thread.currentThread();
    private final List<String> calls = new ArrayList<>();
    private final Map<Integer, Runnable> actions = new HashMap<>();
    private final List<Map.Entry<String, Runnable>> namedActions = new ArrayList<>();
    private final List<Object> blockers = new ArrayList<>();
    private final Map<String, Thread> started = new LinkedHashMap<>();
    private final Map<Thread, Throwable> failures = new HashMap<>();
    private long nowNs;

    /**
     * @param processors what {@link #processorCount()} answers
     * @param startNs the clock's first reading
     */
    public ScriptedPlatform(int processors, long startNs) {
        this.processors = processors;
        this.nowNs = startNs;
    }

    /** A context on this platform for {@code tuning}: one PAUSE per normalized yield, at most 7 per iteration. */
    public SpinContext context(Tuning tuning) {
        return SpinContext.of(this, tuning, new FixedPauseNormalizer());
    }

    /** A context on this platform for {@code Tuning.parse(tuning)}, e.g. {@code "current,monitor=convoy"}. */
    public SpinContext context(String tuning) {
        return context(Tuning.parse(tuning));
    }

    /** Runs {@code action} inside the {@code call}-th logged call (1-based), after logging it. */
    public void at(int call, Runnable action) {
        if (call <= calls.size() || actions.putIfAbsent(call, action) != null) {
            throw new IllegalArgumentException("call " + call + " is past or already scripted");
        }
    }

    /** Runs {@code action} inside the next logged call. */
    public void atNextCall(Runnable action) {
        at(calls.size() + 1, action);
    }

    /**
     * Runs {@code action} inside the next call logged as {@code call} (e.g. {@code "park"}), after
     * logging it. Actions for the same name run in the order they were scripted, one per call; an
     * action scheduled by number for the same call runs first.
     */
    public void atNext(String call, Runnable action) {
        namedActions.add(Map.entry(call, action));
    }

    /**
     * The calls logged so far: {@code pause(n)}, {@code yield}, {@code clock}, {@code park},
     * {@code parkNanos(n)}, {@code unpark(name)} ({@code unpark(me)} for the test thread),
     * {@code startThread(name)}.
     */
    public List<String> calls() {
        return List.copyOf(calls);
    }

    /**
     * The calls logged so far, each run of spin calls (PAUSE, yield, Sleep) shown as one
     * {@code spin(n)}, n being the run's length: what a schedule looks like once the spin before
     * blocking is pinned elsewhere.
     */
    public List<String> callsWithSpinsCollapsed() {
        List<String> shown = new ArrayList<>();
        int run = 0;
        for (String call : calls) {
            if (call.startsWith("pause(") || call.equals("yield") || call.startsWith("sleep(")) {
                run++;
                continue;
            }
            if (run > 0) {
                shown.add("spin(" + run + ")");
                run = 0;
            }
            shown.add(call);
        }
        if (run > 0) {
            shown.add("spin(" + run + ")");
        }
        return shown;
    }

    /** What each park and timed park so far was attributed to, in order. */
    public List<Object> blockers() {
        return new ArrayList<>(blockers);
    }

    public int callCount() {
        return calls.size();
    }

    /** Scripted actions whose call has not come (a scenario that ran as planned leaves none). */
    public int pendingActions() {
        return actions.size() + namedActions.size();
    }

    public void setNanos(long nanos) {
        nowNs = nanos;
    }

    public long nanos() {
        return nowNs;
    }

    private boolean log(String call) {
        if (calls.size() == MAX_CALLS) {
            throw new AssertionError("more than " + MAX_CALLS + " platform calls: a runaway loop; the last: "
                    + calls.subList(MAX_CALLS - 10, MAX_CALLS));
        }
        calls.add(call);
        Runnable action = actions.remove(calls.size());
        Runnable named = null;
        for (int i = 0; i < namedActions.size(); i++) {
            if (namedActions.get(i).getKey().equals(call)) {
                named = namedActions.remove(i).getValue();
                break;
            }
        }
        if (action != null) {
            action.run();
        }
        if (named != null) {
            named.run();
        }
        return action != null || named != null;
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

    /**
     * Logs {@code startThread(name)} and hands the thread to the test instead of starting it: the
     * returned thread is new (not alive) until the test runs it with {@link #runThread}. A pool's
     * workers and gate thread are played this way.
     */
    @Override
    public Thread startThread(String name, Runnable task) {
        Thread[] self = new Thread[1];
        Thread thread = new Thread(() -> {
            try {
                task.run();
            } catch (Stopped stopped) {
                // The script ended this thread's life here (stopThread).
            } catch (Throwable t) {
                failures.put(self[0], t);
            }
        }, name);
        self[0] = thread;
        thread.setDaemon(true);
        started.put(name, thread); // before the log: an action at this call may run the thread at once
        log("startThread(" + name + ")");
        return thread;
    }

    /** Names of the threads started on this platform and not run yet, in start order. */
    public List<String> threadsNotRun() {
        return List.copyOf(started.keySet());
    }

    /**
     * Runs the body of the thread started as {@code name}, as that thread (a real thread, so that
     * {@code Thread.currentThread()} and thread locals answer for it), while the caller waits: one
     * thread runs at a time, so the log stays one sequence. The body's park actions may run other
     * threads in turn (nesting). A failure of the body (an assertion in an action, a runaway loop)
     * is rethrown here.
     *
     * @throws IllegalArgumentException if no thread of that name waits to run
     */
    public void runThread(String name) {
        Thread thread = started.remove(name);
        if (thread == null) {
            throw new IllegalArgumentException("no thread " + name + " waits to run; waiting: " + started.keySet());
        }
        boolean interrupted = Thread.interrupted();
        thread.start();
        for (;;) {
            try {
                thread.join();
                break;
            } catch (InterruptedException e) {
                interrupted = true;
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
        Throwable failure = failures.remove(thread);
        if (failure instanceof RuntimeException e) {
            throw e;
        }
        if (failure instanceof Error e) {
            throw e;
        }
        if (failure != null) {
            throw new AssertionError(name + " failed", failure);
        }
    }

    /**
     * Ends the current thread's life here, when called from an action inside a thread run by
     * {@link #runThread} (its finally blocks still run): how a scenario leaves a thread that would
     * otherwise loop on, as a pool's gate thread does until the pool is drained.
     */
    public void stopThread() {
        throw new Stopped();
    }

    /** Thrown by {@link #stopThread}; {@link #runThread} swallows it. */
    private static final class Stopped extends RuntimeException {
        private static final long serialVersionUID = 1L;

        Stopped() {
            super("stopped by the script", null, false, false);
        }
    }

    @Override
    public int nextRandom(int bound) {
        return 0;
    }
}
