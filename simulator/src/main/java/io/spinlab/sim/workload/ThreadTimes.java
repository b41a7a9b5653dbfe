package io.spinlab.sim.workload;

import io.spinlab.model.platform.ForwardingPlatform;
import io.spinlab.model.platform.Platform;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Objects;

/**
 * Where the processor time of a run on real threads went, thread by thread: the counterpart, on
 * hardware, of the per-thread table a simulated run prints. {@link #around(Platform)} gives a
 * {@link Platform} that hands every call to the given one and, for each thread it starts, notes
 * the thread's processor time (user and system, {@link ThreadMXBean#getCurrentThreadCpuTime()})
 * and its lifetime when the thread's task returns or throws, and counts its yields, sleeps and
 * parks: what a simulated run's table shows as yielding, sleeping and parked time, in counts.
 *
 * <p>The price: every {@code Platform} call of the primitives goes through one more interface
 * call, and the call sites see two implementations instead of one; a run made to be compared
 * with a simulated one, or timed, should not use it (calibrate does not). It is for looking
 * inside a run ({@code spinlab run --hardware --threads-times}), not for scores.
 *
 * <p>Thread-safe: threads add their figures as they end.
 */
public final class ThreadTimes {
    /*
     * Implementation notes
     *
     * A thread's own getCurrentThreadCpuTime is read on the thread itself, in a finally block
     * around its task: after a thread has ended the bean no longer knows it, and reading another
     * thread's time while it runs would need a sampler that itself takes processor time. A thread
     * still running when the table is read (the workload left it behind) is listed with the time
     * it has so far, read through its id, and marked as still running.
     */

    private static final ThreadMXBean BEAN = ManagementFactory.getThreadMXBean();

    /**
     * One thread's figures.
     *
     * @param name          the name it was started with
     * @param cpuNanos      its processor time, user and system, ns
     * @param lifetimeNanos from its start to the end of its task (or to now, if it still runs), ns
     * @param ended         whether its task has ended
     * @param yields        its {@code Platform.yieldThread} calls
     * @param sleeps        its {@code Platform.sleep} calls
     * @param parks         its {@code Platform.park} and {@code parkNanos} calls
     */
    public record Entry(String name, long cpuNanos, long lifetimeNanos, boolean ended, long yields, long sleeps,
                        long parks) {
    }

    /** The calls of the thread that makes them, if this recorder started it; else a sink nobody reads. */
    private final ThreadLocal<Started> self = ThreadLocal.withInitial(() -> new Started("(not started here)"));

    private final Platform delegate;
    private final List<Started> started = new ArrayList<>();
    /** What the workload runs on. */
    private final Platform platform;

    private ThreadTimes(Platform delegate) {
        this.delegate = Objects.requireNonNull(delegate, "delegate");
        this.platform = new Recording();
    }

    /**
     * A recorder around {@code delegate}; use {@link #platform()} in place of {@code delegate}.
     *
     * @throws UnsupportedOperationException if this JVM cannot measure a thread's processor time
     */
    public static ThreadTimes around(Platform delegate) {
        if (!BEAN.isCurrentThreadCpuTimeSupported()) {
            throw new UnsupportedOperationException("this JVM does not measure a thread's processor time "
                    + "(ThreadMXBean.isCurrentThreadCpuTimeSupported() is false)");
        }
        if (!BEAN.isThreadCpuTimeEnabled()) {
            BEAN.setThreadCpuTimeEnabled(true);
        }
        return new ThreadTimes(delegate);
    }

    /** The platform to run the workload on. */
    public Platform platform() {
        return platform;
    }

    /** The threads started so far, in the order they started. */
    public List<Entry> entries() {
        List<Started> copy;
        synchronized (started) {
            copy = List.copyOf(started);
        }
        List<Entry> entries = new ArrayList<>(copy.size());
        for (Started s : copy) {
            entries.add(s.entry());
        }
        return entries;
    }

    /**
     * The entries as a table: one line per thread with its processor time and lifetime in ms and
     * its share of one processor over its lifetime, then the total.
     */
    public String table() {
        List<Entry> entries = entries();
        StringBuilder text = new StringBuilder(String.format(Locale.ROOT, "%-22s %12s %12s %10s %10s %8s %8s%n",
                "thread", "cpu ms", "lifetime ms", "cpu share", "yields", "sleeps", "parks"));
        long total = 0;
        for (Entry e : entries) {
            total += e.cpuNanos();
            text.append(String.format(Locale.ROOT, "%-22s %12.3f %12.3f %9.1f %% %10d %8d %8d%s%n", e.name(),
                    e.cpuNanos() / 1e6, e.lifetimeNanos() / 1e6,
                    e.lifetimeNanos() > 0 ? 100.0 * e.cpuNanos() / e.lifetimeNanos() : 0, e.yields(), e.sleeps(),
                    e.parks(), e.ended() ? "" : " (still running)"));
        }
        text.append(String.format(Locale.ROOT, "%-22s %12.3f%n", "all threads", total / 1e6));
        return text.toString();
    }

    /** A thread this recorder started, and its figures once it ended. */
    private static final class Started {
        final String name;
        final long startNanos = System.nanoTime();
        volatile Thread thread;
        volatile Entry ended;
        /** Written by the thread itself only; read by others after it ended, or as a running count. */
        volatile long yields;
        volatile long sleeps;
        volatile long parks;

        Started(String name) {
            this.name = name;
        }

        Entry entry() {
            Entry e = ended;
            if (e != null) {
                return e;
            }
            Thread t = thread;
            long cpu = t == null ? 0 : Math.max(0, BEAN.getThreadCpuTime(t.threadId()));
            return new Entry(name, cpu, System.nanoTime() - startNanos, false, yields, sleeps, parks);
        }

        Entry end() {
            return new Entry(name, BEAN.getCurrentThreadCpuTime(), System.nanoTime() - startNanos, true, yields,
                    sleeps, parks);
        }
    }


    /** The platform the workload runs on: the delegate's, counting and timing as it goes. */
    private final class Recording extends ForwardingPlatform {
        Recording() {
            super(delegate);
        }

        @Override
        public void yieldThread() {
            self.get().yields++;
            super.yieldThread();
        }

        @Override
        public void sleep(long nanos) {
            self.get().sleeps++;
            super.sleep(nanos);
        }

        @Override
        public void park(Object blocker) {
            self.get().parks++;
            super.park(blocker);
        }

        @Override
        public void parkNanos(Object blocker, long nanos) {
            self.get().parks++;
            super.parkNanos(blocker, nanos);
        }

        @Override
        public Thread startThread(String name, Runnable task) {
            Objects.requireNonNull(task, "task");
            Started s = new Started(name);
            synchronized (started) {
                started.add(s);
            }
            Thread thread = super.startThread(name, () -> {
                self.set(s);
                try {
                    task.run();
                } finally {
                    s.ended = s.end();
                    self.remove();
                }
            });
            s.thread = thread;
            return thread;
        }
    };
}
