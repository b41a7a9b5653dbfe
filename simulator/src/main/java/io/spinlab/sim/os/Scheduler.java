package io.spinlab.sim.os;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * The OS scheduler model: {@code P} logical processors, each with its own ready queue, and time
 * slices. It keeps <em>where</em> threads wait and decides <em>who</em> runs next; the engine
 * decides <em>when</em>, from the {@link OsCosts}, and applies the rules of the profile's
 * operating system (which processor a woken thread prefers, boosts, yields).
 *
 * <ul>
 *   <li>A ready thread waits on one processor's queue, in two priority levels: threads whose
 *       wait just ended with a boost ({@code boosted}) ahead of the rest, each level first in
 *       first out.</li>
 *   <li>A processor that frees takes the first thread of its own queue; with its own queue empty
 *       it takes one from another processor's queue ({@link #pollForIdle}), as both Windows'
 *       idle processors and Linux's idle balancing do; with none anywhere it idles.</li>
 *   <li>A thread that has run a full time slice while its processor's queue is not empty is
 *       preempted at its next scheduling point ({@link #shouldPreempt}); with nobody waiting
 *       there its slice is simply renewed.</li>
 * </ul>
 * Not thread-safe: only the engine touches it.
 */
public final class Scheduler {
    /*
     * Implementation notes
     *
     * Invariants: a processor's thread is IDLE iff its bit is set in idleMask; a thread index
     * is in at most one ready queue, at most once, and never while it occupies a processor (the
     * engine keeps this; assertions check what they cheaply can); readyCount is the sum of the
     * queues' sizes. The engine only queues a thread when no processor is idle, so a processor
     * with an empty queue has nothing to steal from while another is idle.
     *
     * Why stealing takes from the fullest queue (ties: the first after the thief, in index
     * order): it is what Linux's idle balance aims at (the busiest run queue) and it keeps the
     * choice deterministic and independent of which processor happens to be numbered 0.
     * Boosted threads are taken first from any queue, as Windows' idle scan looks for the
     * highest priority ready thread.
     */

    private final Processor[] processors;
    private final long[] idleMask;
    private final RunQueue[] ready;
    private final RunQueue[] readyBoosted;
    private final long timeSlicePicos;
    /** Logical processors per core: processors {@code c × k .. c × k + k − 1} share core c. */
    private final int threadsPerCore;
    private int idleCount;
    private int readyCount;

    /**
     * @param processorCount logical processors, at least 1, one per core
     * @param timeSlicePicos the time slice, positive
     */
    public Scheduler(int processorCount, long timeSlicePicos) {
        this(processorCount, 1, timeSlicePicos);
    }

    /**
     * @param processorCount logical processors, at least 1, a multiple of {@code threadsPerCore}
     * @param threadsPerCore logical processors per core (SMT), at least 1; siblings are numbered
     *                       next to each other, as Windows numbers them
     * @param timeSlicePicos the time slice, positive
     */
    public Scheduler(int processorCount, int threadsPerCore, long timeSlicePicos) {
        if (processorCount < 1) {
            throw new IllegalArgumentException("processorCount = " + processorCount + "; allowed 1 or more");
        }
        if (timeSlicePicos <= 0) {
            throw new IllegalArgumentException("timeSlicePicos = " + timeSlicePicos + "; allowed 1 or more");
        }
        if (threadsPerCore < 1 || processorCount % threadsPerCore != 0) {
            throw new IllegalArgumentException("threadsPerCore = " + threadsPerCore + " with " + processorCount
                    + " processors; allowed a divisor of the processor count");
        }
        this.threadsPerCore = threadsPerCore;
        this.processors = new Processor[processorCount];
        this.idleMask = new long[(processorCount + 63) >>> 6];
        this.ready = new RunQueue[processorCount];
        this.readyBoosted = new RunQueue[processorCount];
        for (int i = 0; i < processorCount; i++) {
            processors[i] = new Processor(i);
            idleMask[i >>> 6] |= 1L << i;
            ready[i] = new RunQueue();
            readyBoosted[i] = new RunQueue();
        }
        this.idleCount = processorCount;
        this.timeSlicePicos = timeSlicePicos;
    }

    public int processorCount() {
        return processors.length;
    }

    public Processor processor(int index) {
        return processors[index];
    }

    /** The processors, by index. */
    public List<Processor> processors() {
        List<Processor> list = new ArrayList<>(processors.length);
        Collections.addAll(list, processors);
        return Collections.unmodifiableList(list);
    }

    public long timeSlicePicos() {
        return timeSlicePicos;
    }

    /** The lowest-numbered idle processor, or -1 if all are busy. */
    public int lowestIdleProcessor() {
        if (idleCount == 0) {
            return -1;
        }
        for (int word = 0; word < idleMask.length; word++) {
            long bits = idleMask[word];
            if (bits != 0) {
                return (word << 6) + Long.numberOfTrailingZeros(bits);
            }
        }
        throw new AssertionError("idleCount = " + idleCount + " but no idle bit");
    }

    public int idleCount() {
        return idleCount;
    }

    /** Puts thread {@code threadIndex} on idle processor {@code processor}; its slice starts at {@code start}. */
    public void occupy(int processor, int threadIndex, long start) {
        Processor p = processors[processor];
        assert p.idle() : p;
        p.occupy(threadIndex, start, sliceEnd(start));
        idleMask[processor >>> 6] &= ~(1L << processor);
        idleCount--;
    }

    /** Marks {@code processor} idle. */
    public void vacate(int processor) {
        Processor p = processors[processor];
        assert !p.idle() : p;
        p.vacate();
        idleMask[processor >>> 6] |= 1L << processor;
        idleCount++;
    }

    /** Logical processors per core. */
    public int threadsPerCore() {
        return threadsPerCore;
    }

    /** The first logical processor of {@code processor}'s core. */
    public int firstOfCore(int processor) {
        return processor - processor % threadsPerCore;
    }

    /** Whether {@code processor} and every other logical processor of its core are idle. */
    public boolean coreIdle(int processor) {
        int first = firstOfCore(processor);
        for (int q = first; q < first + threadsPerCore; q++) {
            if (!processors[q].idle()) {
                return false;
            }
        }
        return true;
    }

    /** The lowest-numbered processor of a core whose logical processors are all idle, or -1. */
    public int lowestIdleCoreProcessor() {
        if (idleCount < threadsPerCore) {
            return -1;
        }
        for (int first = 0; first < processors.length; first += threadsPerCore) {
            if (coreIdle(first)) {
                return first;
            }
        }
        return -1;
    }

    /** Whether {@code processor} runs no thread. */
    public boolean isIdle(int processor) {
        return processors[processor].idle();
    }

    /**
     * Queues ready thread {@code threadIndex} on {@code processor}: last of its priority level,
     * or first of it with {@code first} (a thread preempted by a higher priority keeps its place).
     */
    public void enqueue(int threadIndex, int processor, boolean boosted, boolean first) {
        RunQueue queue = boosted ? readyBoosted[processor] : ready[processor];
        if (first) {
            queue.addFirst(threadIndex);
        } else {
            queue.add(threadIndex);
        }
        readyCount++;
    }

    /** The first ready thread of {@code processor}'s own queue, boosted ones first, or -1. */
    public int pollLocal(int processor) {
        int index = readyBoosted[processor].poll();
        if (index < 0) {
            index = ready[processor].poll();
        }
        if (index >= 0) {
            readyCount--;
        }
        return index;
    }

    /**
     * The thread {@code processor} runs next when it would otherwise idle: its own first, else a
     * boosted thread from the first queue after it that has one, else the first thread of the
     * fullest queue (ties: the first after it); -1 when nobody is ready.
     */
    public int pollForIdle(int processor) {
        int local = pollLocal(processor);
        if (local >= 0 || readyCount == 0) {
            return local;
        }
        int n = processors.length;
        for (int step = 1; step < n; step++) {
            int q = (processor + step) % n;
            if (!readyBoosted[q].isEmpty()) {
                readyCount--;
                return readyBoosted[q].poll();
            }
        }
        int fullest = -1;
        for (int step = 1; step < n; step++) {
            int q = (processor + step) % n;
            if (fullest < 0 ? !ready[q].isEmpty() : ready[q].size() > ready[fullest].size()) {
                fullest = q;
            }
        }
        assert fullest >= 0 : this;
        readyCount--;
        return ready[fullest].poll();
    }

    /** {@code processor}'s queue of unboosted ready threads (read only: change it through the scheduler). */
    RunQueue queue(int processor) {
        return ready[processor];
    }

    /** Takes unboosted thread {@code threadIndex} off {@code processor}'s queue, which holds it. */
    public void take(int processor, int threadIndex) {
        boolean removed = ready[processor].remove(threadIndex);
        assert removed : threadIndex + " not ready on cpu" + processor;
        readyCount--;
    }

    /**
     * The processor, other than {@code processor}, whose queue an idle {@code processor} takes a
     * thread from: the fullest (ties: the first after it), boosted threads first, as
     * {@link #pollForIdle} chooses; -1 when no other queue holds a thread.
     */
    public int queueToStealFrom(int processor) {
        int n = processors.length;
        for (int step = 1; step < n; step++) {
            int q = (processor + step) % n;
            if (!readyBoosted[q].isEmpty()) {
                return q;
            }
        }
        int fullest = -1;
        for (int step = 1; step < n; step++) {
            int q = (processor + step) % n;
            if (fullest < 0 ? !ready[q].isEmpty() : ready[q].size() > ready[fullest].size()) {
                fullest = q;
            }
        }
        return fullest;
    }

    /** Removes a thread from whichever ready queue holds it, if any. */
    public boolean removeReady(int threadIndex) {
        for (int p = 0; p < processors.length; p++) {
            if (readyBoosted[p].remove(threadIndex) || ready[p].remove(threadIndex)) {
                readyCount--;
                return true;
            }
        }
        return false;
    }

    /** Threads waiting for a processor, on every queue. */
    public int readyCount() {
        return readyCount;
    }

    /** Threads waiting on {@code processor}'s own queue. */
    public int readyCount(int processor) {
        return readyBoosted[processor].size() + ready[processor].size();
    }

    /** The threads waiting on {@code processor}'s own queue, boosted ones first. */
    public int[] readyThreads(int processor) {
        int[] boosted = readyBoosted[processor].toArray();
        int[] plain = ready[processor].toArray();
        int[] all = java.util.Arrays.copyOf(boosted, boosted.length + plain.length);
        System.arraycopy(plain, 0, all, boosted.length, plain.length);
        return all;
    }

    /** Boosted threads waiting on {@code processor}'s own queue. */
    public int boostedReadyCount(int processor) {
        return readyBoosted[processor].size();
    }

    /** Every ready thread: processor by processor, boosted ones first on each. */
    public int[] readyThreads() {
        int[] all = new int[readyCount];
        int i = 0;
        for (int p = 0; p < processors.length; p++) {
            for (int index : readyBoosted[p].toArray()) {
                all[i++] = index;
            }
            for (int index : ready[p].toArray()) {
                all[i++] = index;
            }
        }
        return all;
    }

    /** When the current slice of {@code processor} ends (it may be renewed then; see {@link #shouldPreempt}). */
    public long sliceEndPicos(int processor) {
        return processors[processor].sliceEndPicos();
    }

    /**
     * Sets when the running thread's slice on {@code processor} ends, for rules whose slices are
     * not one fixed length from the dispatch (Linux's EEVDF: the tick after its deadline).
     */
    public void endSliceAt(int processor, long end) {
        processors[processor].endSliceAt(end);
    }

    /** Whether the thread on {@code processor} has reached the end of its slice by {@code now}. */
    public boolean sliceUsedUp(int processor, long now) {
        return now >= processors[processor].sliceEndPicos();
    }

    /** One slice from {@code start}; never past the end of time. */
    private long sliceEnd(long start) {
        long end = start + timeSlicePicos;
        return end < start ? Long.MAX_VALUE : end;
    }

    /**
     * Time-slice check at a scheduling point of the thread on {@code processor}: true if it has
     * run a full slice and another thread waits on this processor's queue. With nobody waiting
     * there, an expired slice is renewed.
     */
    public boolean shouldPreempt(int processor, long now) {
        if (!sliceUsedUp(processor, now)) {
            return false;
        }
        if (readyCount(processor) > 0) {
            return true;
        }
        processors[processor].renewSlice(now, sliceEnd(now));
        return false;
    }

    @Override
    public String toString() {
        StringBuilder queues = new StringBuilder();
        for (int p = 0; p < processors.length; p++) {
            if (readyCount(p) > 0) {
                queues.append(", cpu").append(p).append(' ').append(readyBoosted[p]).append(ready[p]);
            }
        }
        return "Scheduler[" + processors.length + " processors, " + idleCount + " idle" + queues + "]";
    }
}
