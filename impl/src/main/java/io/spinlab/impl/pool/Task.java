package io.spinlab.impl.pool;

import io.spinlab.impl.event.ManualResetEvent;
import io.spinlab.impl.spin.SpinBeforeBlock;
import io.spinlab.impl.spin.SpinContext;
import io.spinlab.model.platform.Platform;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.Objects;
import java.util.concurrent.Callable;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.RunnableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Function;

/**
 * The completion handle that {@link ThreadPool#submit} returns: the equivalent of .NET's
 * {@code Task}. It completes once, with a value, an exception or a cancellation; waiting for
 * it spins first by the {@code spin} knob, exactly as {@code Task.Wait} shares
 * {@code ManualResetEventSlim}'s spin heuristic (dotnet/coreclr #13631 removed the
 * processor-count multiply from both), and then blocks on a lazily created
 * {@link ManualResetEvent}. Continuations ({@link #continueWith}) run on the pool once the
 * task completes.
 *
 * <p>Thread-safe. Completion is wait-free apart from scheduling continuations; waiting blocks.
 * {@link #join()} is not interruptible (as {@code Task.Wait()}); {@link #get()} is.
 * {@link #cancel} only prevents a task that has not started; a running task is never
 * interrupted through it.
 *
 * @param <T> the result type
 */
public final class Task<T> implements RunnableFuture<T> {
    /*
     * Implementation notes.
     *
     * Invariants: state moves NEW → RUNNING → SUCCEEDED | FAILED, or NEW → CANCELLED, each by
     * one CAS or volatile write, and never back; `outcome` (value or Throwable) is written
     * before the volatile write of the final state.
     *
     * Lost wake-ups: a blocking waiter installs the event (CAS) and then re-reads state; the
     * completer writes state and then reads the event field. Volatile accesses are totally
     * ordered, so either the waiter sees completion or the completer sees and sets the event.
     *
     * Continuations: a Treiber list swapped for the FIRED sentinel at completion; a
     * continuation added after that is scheduled at once by the adder.
     *
     * Linearization points: completion at the volatile write of the final state; cancel at its
     * CAS; isDone at its read of state.
     *
     * Spin/wait policy: SpinBeforeBlock for the `spin` knob with its default count (35 ×
     * SpinOnce for `spinonce`, 10 iterations for the scaled policies), then the event, created
     * with spin count 0 so that the spin is not repeated.
     */

    static final int NEW = 0;
    static final int RUNNING = 1;
    static final int SUCCEEDED = 2;
    static final int FAILED = 3;
    static final int CANCELLED = 4;

    private static final Continuation FIRED = new Continuation(null, null);

    private final ThreadPool pool;
    private final SpinContext context;
    private Callable<? extends T> callable;
    private Object outcome;
    private volatile int state;
    private volatile ManualResetEvent event;
    private volatile Continuation continuations;

    Task(ThreadPool pool, SpinContext context, Callable<? extends T> callable) {
        this.pool = pool;
        this.context = context;
        this.callable = Objects.requireNonNull(callable, "callable");
    }

    // ---------------------------------------------------------------- running and completing

    /** Runs the task's code once; later calls, and calls after cancellation, do nothing. */
    @Override
    public void run() {
        if (state != NEW || !STATE.compareAndSet(this, NEW, RUNNING)) {
            return;
        }
        Callable<? extends T> code = callable;
        callable = null;
        T value;
        try {
            value = code.call();
        } catch (Throwable t) {
            finish(FAILED, t);
            return;
        }
        finish(SUCCEEDED, value);
    }

    /** Cancels the task if it has not started; {@code mayInterruptIfRunning} is ignored. */
    @Override
    public boolean cancel(boolean mayInterruptIfRunning) {
        if (state != NEW || !STATE.compareAndSet(this, NEW, CANCELLED)) {
            return false;
        }
        callable = null;
        fire();
        return true;
    }

    /** Completes a task that could not be scheduled (its pool rejected it). */
    void failUnstarted(Throwable cause) {
        if (state == NEW && STATE.compareAndSet(this, NEW, RUNNING)) {
            callable = null;
            finish(FAILED, cause);
        }
    }

    private void finish(int finalState, Object result) {
        outcome = result;
        state = finalState; // LP
        fire();
    }

    private void fire() {
        ManualResetEvent e = event;
        if (e != null) {
            e.set();
        }
        Continuation list = (Continuation) CONTINUATIONS.getAndSet(this, FIRED);
        Continuation reversed = null;
        for (Continuation c = list; c != null; c = c.next) {
            reversed = new Continuation(c.task, reversed);
        }
        for (Continuation c = reversed; c != null; c = c.next) {
            schedule(c.task);
        }
    }

    private void schedule(Task<?> continuation) {
        try {
            pool.execute(continuation);
        } catch (RejectedExecutionException e) {
            continuation.failUnstarted(e);
        }
    }

    /**
     * A task that runs {@code fn(this)} on the pool once this task completes (successfully or
     * not); its result or exception completes the returned task.
     */
    public <U> Task<U> continueWith(Function<? super Task<T>, ? extends U> fn) {
        Objects.requireNonNull(fn, "fn");
        Task<U> next = new Task<>(pool, context, () -> fn.apply(this));
        for (;;) {
            Continuation c = continuations;
            if (c == FIRED) {
                schedule(next);
                return next;
            }
            if (CONTINUATIONS.compareAndSet(this, c, new Continuation(next, c))) {
                return next;
            }
        }
    }

    // ---------------------------------------------------------------- queries

    @Override
    public boolean isDone() {
        return state >= SUCCEEDED;
    }

    @Override
    public boolean isCancelled() {
        return state == CANCELLED;
    }

    /** True if the task completed with an exception (not a cancellation). */
    public boolean isFailed() {
        return state == FAILED;
    }

    /** The exception the task failed with, or null if it did not fail (or is not done). */
    public Throwable exception() {
        return state == FAILED ? (Throwable) outcome : null;
    }

    // ---------------------------------------------------------------- waiting

    /**
     * Waits (uninterruptibly) for completion and returns the value.
     *
     * @throws CompletionException wrapping the exception the task failed with
     * @throws CancellationException if the task was cancelled
     */
    public T join() {
        boolean interrupted = false;
        while (!isDone()) {
            try {
                awaitNanos(-1);
            } catch (InterruptedException e) {
                interrupted = true;
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
        return reportJoin();
    }

    /**
     * Waits up to the timeout for completion.
     *
     * @return true if the task is done
     */
    public boolean await(long timeout, TimeUnit unit) throws InterruptedException {
        if (timeout < 0) {
            throw new IllegalArgumentException("timeout = " + timeout + " is negative; allowed 0 or more");
        }
        return awaitNanos(unit.toNanos(timeout));
    }

    @Override
    public T get() throws InterruptedException, ExecutionException {
        awaitNanos(-1);
        return reportGet();
    }

    @Override
    public T get(long timeout, TimeUnit unit) throws InterruptedException, ExecutionException, TimeoutException {
        if (!await(timeout, unit)) {
            throw new TimeoutException("task not done after " + timeout + " " + unit);
        }
        return reportGet();
    }

    /** @param timeoutNanos negative = no limit */
    private boolean awaitNanos(long timeoutNanos) throws InterruptedException {
        if (isDone()) {
            return true;
        }
        if (Thread.interrupted()) {
            throw new InterruptedException();
        }
        if (timeoutNanos == 0) {
            return false;
        }
        Platform platform = context.platform();
        long start = timeoutNanos > 0 ? platform.nanoTime() : 0L;
        SpinBeforeBlock policy = SpinBeforeBlock.of(context.tuning().spin());
        if (policy.spin(context, policy.defaultSpinCount(platform), this, Task::isDone)) {
            return true;
        }
        ManualResetEvent e = completionEvent();
        if (isDone()) {
            return true;
        }
        if (timeoutNanos < 0) {
            e.await();
            return true;
        }
        long remaining = timeoutNanos - (platform.nanoTime() - start);
        return (remaining > 0 && e.await(remaining, TimeUnit.NANOSECONDS)) || isDone();
    }

    private ManualResetEvent completionEvent() {
        ManualResetEvent e = event;
        if (e == null) {
            ManualResetEvent created = new ManualResetEvent(context, false, 0);
            e = EVENT.compareAndSet(this, null, created) ? created : event;
        }
        return e;
    }

    @SuppressWarnings("unchecked")
    private T reportJoin() {
        int s = state;
        if (s == SUCCEEDED) {
            return (T) outcome;
        }
        if (s == CANCELLED) {
            throw new CancellationException("task cancelled");
        }
        throw new CompletionException((Throwable) outcome);
    }

    @SuppressWarnings("unchecked")
    private T reportGet() throws ExecutionException {
        int s = state;
        if (s == SUCCEEDED) {
            return (T) outcome;
        }
        if (s == CANCELLED) {
            throw new CancellationException("task cancelled");
        }
        throw new ExecutionException((Throwable) outcome);
    }

    @Override
    public String toString() {
        String[] names = {"new", "running", "succeeded", "failed", "cancelled"};
        return "Task[" + names[state] + "]";
    }

    /** One registered continuation. */
    static final class Continuation {
        final Task<?> task;
        final Continuation next;

        Continuation(Task<?> task, Continuation next) {
            this.task = task;
            this.next = next;
        }
    }

    // VarHandle mechanics
    private static final VarHandle STATE;
    private static final VarHandle EVENT;
    private static final VarHandle CONTINUATIONS;

    static {
        try {
            MethodHandles.Lookup lookup = MethodHandles.lookup();
            STATE = lookup.findVarHandle(Task.class, "state", int.class);
            EVENT = lookup.findVarHandle(Task.class, "event", ManualResetEvent.class);
            CONTINUATIONS = lookup.findVarHandle(Task.class, "continuations", Continuation.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }
}
