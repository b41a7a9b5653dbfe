package io.spinlab.sim.workload;

import io.spinlab.impl.event.CountdownEvent;
import io.spinlab.impl.spin.SpinContext;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.Objects;
import java.util.concurrent.TimeUnit;

/**
 * Starts a fixed number of worker threads through the {@code Platform} and waits for them
 * through a {@link CountdownEvent}, so that it works the same on hardware and in the
 * simulator (where {@code Thread.join} would block outside the Platform).
 *
 * <p>A worker that throws still counts down, records the first failure (which {@link #join}
 * rethrows) and rethrows it on its own thread, where the simulator turns it into a failed run
 * with its seed.
 */
public final class WorkerGroup {
    /*
     * Implementation notes
     *
     * Memory ordering: `failure` is published by a CAS before the worker's count-down, whose
     * CAS in CountdownEvent orders it before join's read.
     */

    /** The body of a worker. */
    @FunctionalInterface
    public interface Body {
        void run() throws Exception;
    }

    private final SpinContext context;
    private final int size;
    private final CountdownEvent done;
    private int started;
    private volatile Throwable failure;

    /** A group for {@code size} workers, to be started with {@link #start}. */
    public WorkerGroup(SpinContext context, int size) {
        if (size < 1) {
            throw new IllegalArgumentException("size = " + size + "; allowed 1 or more");
        }
        this.context = Objects.requireNonNull(context, "context");
        this.size = size;
        this.done = new CountdownEvent(context, size);
    }

    /** Starts the next worker. Call from one thread only. */
    public Thread start(String name, Body body) {
        if (started == size) {
            throw new IllegalStateException("all " + size + " workers have been started");
        }
        started++;
        return context.platform().startThread(name, () -> {
            try {
                body.run();
            } catch (Throwable t) {
                FAILURE.compareAndSet(this, null, t);
                if (t instanceof RuntimeException r) {
                    throw r;
                }
                if (t instanceof Error e) {
                    throw e;
                }
                throw new IllegalStateException("worker '" + name + "' failed", t);
            } finally {
                done.signal();
            }
        });
    }

    /**
     * Waits until every worker has finished, at most {@code timeout} of the platform's clock.
     *
     * @throws IllegalStateException if a worker threw (with its exception as cause) or the wait timed out
     */
    public void join(long timeout, TimeUnit unit) throws InterruptedException {
        if (started != size) {
            throw new IllegalStateException(started + " of " + size + " workers started");
        }
        boolean finished = done.await(timeout, unit);
        Throwable f = failure;
        if (f != null) {
            throw new IllegalStateException("a worker failed: " + f, f);
        }
        if (!finished) {
            throw new IllegalStateException(done.currentCount() + " of " + size + " workers still running after "
                    + unit.toMillis(timeout) + " ms");
        }
    }

    // VarHandle mechanics
    private static final VarHandle FAILURE;

    static {
        try {
            FAILURE = MethodHandles.lookup().findVarHandle(WorkerGroup.class, "failure", Throwable.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }
}
