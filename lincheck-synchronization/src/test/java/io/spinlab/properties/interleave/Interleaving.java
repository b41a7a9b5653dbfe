package io.spinlab.properties.interleave;

import io.spinlab.model.platform.Platform;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * One scripted interleaving of real threads, at the granularity of single shared-memory accesses.
 * The code under test is a copy whose accesses call {@link #reach(String)} first
 * ({@link BreakpointInstrumenter}, {@link Breakpoints}); each party is a real thread, but only one
 * runs at a time, and only when the script (the test thread) says so: {@link Party#runUntil} runs a
 * party until it is about to make the access at a site (or reaches a site the test's own code
 * names), then stops it there. So a race that needs one thread to act between two consecutive
 * accesses of another, which no platform call separates, is staged exactly, every time.
 *
 * <p>{@link #platform()} is the parties' platform: {@code park} blocks the party (it stops, and a
 * later run resumes it only once an {@code unpark} gave it a permit) unless its thread is
 * interrupted; a timed {@code parkNanos} returns at the next run even without a permit, as a
 * time-out may; the clock reads what {@link #setNanoTime} set last; {@code pause}, {@code yield}
 * and {@code sleep} return at once; a thread the code under test starts becomes a party that runs
 * when the script runs it ({@link #started}). A loop that never reaches its stop (a party spinning
 * on another party that is stopped) fails after {@value #MAX_STEPS} accesses instead of hanging.
 *
 * <p>At most one interleaving is in progress in a JVM at a time ({@link #begin}); {@link #close}
 * ends it and unwinds every party that has not finished.
 */
public final class Interleaving implements AutoCloseable {
    /** Accesses one run of a party may make before it counts as a runaway loop. */
    static final int MAX_STEPS = 100_000;
    /** Sites a failure message lists. */
    private static final int TRAIL = 16;

    private static Interleaving current;

    private final Object monitor = new Object();
    private final List<Party> parties = new ArrayList<>();
    private final int processors;
    /** Whose turn it is: a party, or null for the script. Guarded by {@link #monitor}. */
    private Party turn;
    private long nowNanos;
    private boolean closed;

    private Interleaving(int processors, long startNanos) {
        this.processors = processors;
        this.nowNanos = startNanos;
    }

    /**
     * Starts an interleaving whose platform reports {@code processors} processors and whose clock
     * starts at {@code startNanos}.
     *
     * @throws IllegalStateException if another is in progress
     */
    public static Interleaving begin(int processors, long startNanos) {
        synchronized (Interleaving.class) {
            if (current != null) {
                throw new IllegalStateException("an interleaving is already in progress");
            }
            current = new Interleaving(processors, startNanos);
            return current;
        }
    }

    /**
     * The hook: called by instrumented code before each shared-memory access, and by a party's own
     * code to name a point of its script. Does nothing outside a party of the interleaving in progress.
     */
    public static void reach(String site) {
        Interleaving il;
        synchronized (Interleaving.class) {
            il = current;
        }
        if (il != null) {
            Party party = il.partyOf(Thread.currentThread());
            if (party != null) {
                party.reached(site);
            }
        }
    }

    /** A new party that will run {@code body} on its own thread, named {@code name}. */
    public Party party(String name, Body body) {
        Party p = new Party(name, body);
        synchronized (monitor) {
            parties.add(p);
        }
        return p;
    }

    /**
     * The party of the thread the code under test started ({@link Platform#startThread}) under
     * {@code name}; it runs only when the script runs it.
     *
     * @throws AssertionError if no such thread was started
     */
    public Party started(String name) {
        synchronized (monitor) {
            for (Party p : parties) {
                if (p.name.equals(name)) {
                    return p;
                }
            }
        }
        throw new AssertionError("no thread named " + name + " was started");
    }

    /** The platform the code under test must use. */
    public Platform platform() {
        return platform;
    }

    /** Sets the clock. */
    public void setNanoTime(long nanos) {
        synchronized (monitor) {
            nowNanos = nanos;
        }
    }

    /** Unwinds every party that has not finished, and ends the interleaving. */
    @Override
    public void close() {
        List<Thread> threads = new ArrayList<>();
        synchronized (monitor) {
            closed = true;
            for (Party p : parties) {
                if (p.status != Status.NEW) {
                    threads.add(p.thread);
                }
            }
            monitor.notifyAll();
        }
        for (Thread t : threads) {
            try {
                t.join(TimeUnit.SECONDS.toMillis(5));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                break;
            }
        }
        synchronized (Interleaving.class) {
            if (current == this) {
                current = null;
            }
        }
    }

    private Party partyOf(Thread thread) {
        synchronized (monitor) {
            for (Party p : parties) {
                if (p.thread == thread) {
                    return p;
                }
            }
            return null;
        }
    }

    /** A party's code. */
    @FunctionalInterface
    public interface Body {
        void run() throws Exception;
    }

    /** Where a party stands between runs. */
    public enum Status { NEW, STOPPED, PARKED, FINISHED, FAILED }

    /** Thrown inside a party's thread to unwind it when the interleaving closes. */
    private static final class Unwound extends Error {
        private static final long serialVersionUID = 1L;

        Unwound() {
            super("interleaving closed", null, false, false);
        }
    }

    /** One thread of the interleaving. */
    public final class Party {
        private final String name;
        private final Body body;
        private final Thread thread;
        private Status status = Status.NEW;
        private boolean permit;
        private boolean timedPark;
        private String stopAt;
        private String stoppedAt;
        private int steps;
        private Throwable failure;
        /** The last sites reached, oldest first, for failure messages. */
        private final ArrayDeque<String> trail = new ArrayDeque<>();

        private Party(String name, Body body) {
            this.name = name;
            this.body = body;
            this.thread = new Thread(this::main, name);
            thread.setDaemon(true);
        }

        /**
         * Runs this party until it is about to make an access at {@code site} (or its own code reaches
         * that name), and stops it there.
         *
         * @throws AssertionError if it finishes, fails or parks for good first
         */
        public void runUntil(String site) {
            Status s = run(site);
            if (s != Status.STOPPED) {
                throw new AssertionError(name + " did not reach " + site + ": " + describe(s));
            }
        }

        /**
         * Runs this party until it parks with no wake-up pending.
         *
         * @throws AssertionError if it finishes or fails first
         */
        public void runUntilParked() {
            Status s = run(null);
            if (s != Status.PARKED) {
                throw new AssertionError(name + " was expected to park: " + describe(s));
            }
        }

        /**
         * Runs this party to the end of its body.
         *
         * @throws AssertionError if it fails, or parks with no wake-up pending (a lost wake-up when no
         *         other party is left to give one)
         */
        public void runToEnd() {
            Status s = run(null);
            if (s != Status.FINISHED) {
                throw new AssertionError(name + " did not finish: " + describe(s));
            }
        }

        /** The last sites this party reached, oldest first: for a script's own messages. */
        public String trail() {
            synchronized (monitor) {
                return String.join(", ", trail);
            }
        }

        /** Where this party stands. */
        public Status status() {
            synchronized (monitor) {
                return status;
            }
        }

        private String describe(Status s) {
            String what = switch (s) {
                case FINISHED -> "it finished";
                case FAILED -> "it failed with " + failure;
                case PARKED -> timedPark ? "it parked (timed)" : "it parked with no wake-up pending";
                case STOPPED -> "it stopped at " + stoppedAt;
                case NEW -> "it never ran";
            };
            synchronized (monitor) {
                return what + " (its last accesses: " + String.join(", ", trail) + ")";
            }
        }

        /** Gives this party the turn until it stops, parks, finishes or fails; returns which. */
        private Status run(String site) {
            synchronized (monitor) {
                if (closed) {
                    throw new IllegalStateException("the interleaving is closed");
                }
                if (status == Status.FINISHED || status == Status.FAILED) {
                    return status;
                }
                if (status == Status.PARKED) {
                    if (permit) {
                        permit = false;
                    } else if (!timedPark) {
                        return status; // an untimed park with nothing to end it
                    }
                }
                stopAt = site;
                steps = 0;
                turn = this;
                if (status == Status.NEW) {
                    thread.start();
                } else {
                    monitor.notifyAll();
                }
                while (turn == this) {
                    try {
                        monitor.wait();
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                        throw new AssertionError("interrupted while " + name + " ran", e);
                    }
                }
                if (failure instanceof Error e && !(failure instanceof AssertionError)) {
                    throw e;
                }
                return status;
            }
        }

        private void main() {
            synchronized (monitor) {
                awaitTurn();
            }
            Status end;
            try {
                body.run();
                end = Status.FINISHED;
            } catch (Unwound u) {
                return;
            } catch (Throwable t) {
                failure = t;
                end = Status.FAILED;
            }
            synchronized (monitor) {
                handBack(end);
            }
        }

        /** On this party's thread: an access at {@code site} comes next. */
        private void reached(String site) {
            synchronized (monitor) {
                if (trail.size() == TRAIL) {
                    trail.removeFirst();
                }
                trail.addLast(site);
                if (++steps > MAX_STEPS) {
                    throw new AssertionError(name + " made " + MAX_STEPS + " accesses without reaching "
                            + (stopAt == null ? "its end or a park" : stopAt)
                            + " (a loop waiting on a stopped party?)");
                }
                if (site.equals(stopAt)) {
                    stoppedAt = site;
                    handBack(Status.STOPPED);
                    awaitTurn();
                }
            }
        }

        private void park(boolean timed) {
            synchronized (monitor) {
                if (permit) {
                    permit = false;
                    return;
                }
                if (thread.isInterrupted()) {
                    return; // as LockSupport.park: an interrupted thread does not block
                }
                timedPark = timed;
                handBack(Status.PARKED);
                awaitTurn();
            }
        }

        /** Guarded by {@link #monitor}: gives the turn back to the script. */
        private void handBack(Status s) {
            status = s;
            turn = null;
            monitor.notifyAll();
        }

        /** Guarded by {@link #monitor}: waits until this party runs again, or unwinds it. */
        private void awaitTurn() {
            boolean interrupted = false;
            while (turn != this && !closed) {
                try {
                    monitor.wait();
                } catch (InterruptedException e) {
                    interrupted = true;
                }
            }
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
            if (closed) {
                throw new Unwound();
            }
        }
    }

    private final Platform platform = new Platform() {
        @Override
        public int processorCount() {
            return processors;
        }

        @Override
        public long nanoTime() {
            synchronized (monitor) {
                return nowNanos;
            }
        }

        @Override
        public void pause(int count) {
        }

        @Override
        public void yieldThread() {
        }

        @Override
        public void sleep(long nanos) {
        }

        @Override
        public void park(Object blocker) {
            self().park(false);
        }

        @Override
        public void parkNanos(Object blocker, long nanos) {
            self().park(true);
        }

        @Override
        public void unpark(Thread thread) {
            Party p = partyOf(thread);
            if (p == null) {
                throw new IllegalStateException("unpark of a thread outside the interleaving: " + thread);
            }
            synchronized (monitor) {
                p.permit = true;
            }
        }

        /** A new party, not started: the script runs it ({@link #started}). */
        @Override
        public Thread startThread(String name, Runnable task) {
            return party(name, task::run).thread;
        }

        @Override
        public int nextRandom(int bound) {
            return 0;
        }

        private Party self() {
            Party p = partyOf(Thread.currentThread());
            if (p == null) {
                throw new IllegalStateException("a platform call outside the interleaving's parties");
            }
            return p;
        }
    };
}
