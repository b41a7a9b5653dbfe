package io.spinlab.sim.os;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * The OS scheduler model: {@code P} logical processors, one global FIFO run queue, and time
 * slices. It decides <em>where</em> a thread runs and <em>who</em> runs next; the engine decides
 * <em>when</em>, from the {@link OsCosts}.
 *
 * <ul>
 *   <li>A thread that becomes runnable takes the lowest-numbered idle processor, or queues.</li>
 *   <li>A processor that frees takes the first queued thread, or goes idle.</li>
 *   <li>A thread that has run a full time slice while the queue is not empty is preempted at
 *       its next scheduling point ({@link #shouldPreempt}); with nobody waiting its slice is
 *       simply renewed.</li>
 * </ul>
 * Not thread-safe: only the engine touches it.
 */
public final class Scheduler {
    /*
     * Implementation notes
     *
     * Invariants: a processor's thread is IDLE iff its bit is set in idleMask; a thread index
     * is in the run queue at most once and never while it occupies a processor (the engine
     * keeps the second half; assertions check the first).
     *
     * Why the lowest idle processor rather than the last one the thread ran on: affinity would
     * matter with a cache model, which this OS model does not have yet; the lowest index is
     * deterministic and cheap (one numberOfTrailingZeros per 64 processors).
     */

    private final Processor[] processors;
    private final long[] idleMask;
    private final RunQueue runQueue = new RunQueue();
    private final long timeSlicePicos;
    private int idleCount;

    /**
     * @param processorCount logical processors, at least 1
     * @param timeSlicePicos the time slice, positive
     */
    public Scheduler(int processorCount, long timeSlicePicos) {
        if (processorCount < 1) {
            throw new IllegalArgumentException("processorCount = " + processorCount + "; allowed 1 or more");
        }
        if (timeSlicePicos <= 0) {
            throw new IllegalArgumentException("timeSlicePicos = " + timeSlicePicos + "; allowed 1 or more");
        }
        this.processors = new Processor[processorCount];
        this.idleMask = new long[(processorCount + 63) >>> 6];
        for (int i = 0; i < processorCount; i++) {
            processors[i] = new Processor(i);
            idleMask[i >>> 6] |= 1L << i;
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
        p.occupy(threadIndex, start);
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

    /** Appends a ready thread to the run queue. */
    public void enqueue(int threadIndex) {
        runQueue.add(threadIndex);
    }

    /** The next ready thread, or -1. */
    public int pollReady() {
        return runQueue.poll();
    }

    /** Removes a thread from the run queue, if there. */
    public boolean removeReady(int threadIndex) {
        return runQueue.remove(threadIndex);
    }

    /** Threads waiting for a processor. */
    public int readyCount() {
        return runQueue.size();
    }

    /** The run queue, first to last. */
    public int[] readyThreads() {
        return runQueue.toArray();
    }

    /** When the current slice of {@code processor} ends (it may be renewed then; see {@link #shouldPreempt}). */
    public long sliceEndPicos(int processor) {
        long end = processors[processor].sliceStartPicos() + timeSlicePicos;
        return end < 0 ? Long.MAX_VALUE : end;
    }

    /**
     * Time-slice check at a scheduling point of the thread on {@code processor}: true if it has
     * run a full slice and another thread waits. With nobody waiting, an expired slice is renewed.
     */
    public boolean shouldPreempt(int processor, long now) {
        Processor p = processors[processor];
        if (now - p.sliceStartPicos() < timeSlicePicos) {
            return false;
        }
        if (!runQueue.isEmpty()) {
            return true;
        }
        p.renewSlice(now);
        return false;
    }

    @Override
    public String toString() {
        return "Scheduler[" + processors.length + " processors, " + idleCount + " idle, " + runQueue + "]";
    }
}
