package io.spinlab.impl.testing;

import io.spinlab.model.platform.Platform;

import java.util.ArrayList;
import java.util.List;

/**
 * A single-threaded fake platform for unit tests of spin arithmetic: a virtual clock that PAUSEs
 * advance by a fixed cost, and a log of every call. Blocking calls are not supported.
 */
public final class RecordingPlatform implements Platform {

    /** One recorded call. */
    public record Call(String kind, long amount) {
        @Override
        public String toString() {
            return kind + (amount == 0 && !kind.equals("sleep") ? "" : "(" + amount + ")");
        }
    }

    private final int processors;
    private double nsPerPause;
    private final long clockReadNs;
    private final List<Call> calls = new ArrayList<>();
    private double nowNs = 1_000_000;
    private boolean recordClock;
    private int actionAtCall = -1;
    private Runnable action;

    /**
     * @param processors what {@link #processorCount()} answers
     * @param nsPerPause virtual cost of one PAUSE
     * @param clockReadNs virtual cost of one clock read
     */
    public RecordingPlatform(int processors, double nsPerPause, long clockReadNs) {
        this.processors = processors;
        this.nsPerPause = nsPerPause;
        this.clockReadNs = clockReadNs;
    }

    /** From now on one PAUSE costs {@code nanos} (a part whose PAUSE changes speed, e.g. with its clock). */
    public void setNsPerPause(double nanos) {
        this.nsPerPause = nanos;
    }

    /** A platform whose PAUSE costs {@code cycles} at {@code ghz}. */
    public static RecordingPlatform ofCycles(int processors, int cycles, double ghz) {
        return new RecordingPlatform(processors, cycles / ghz, 20);
    }

    public List<Call> calls() {
        return calls;
    }

    public void clear() {
        calls.clear();
    }

    /**
     * Runs {@code action} once, right after the {@code calls}-th recorded call: the same thread plays
     * the other side (releases a lock, sets an event) at a chosen point of a waiter's schedule.
     */
    public void afterCalls(int calls, Runnable action) {
        this.actionAtCall = calls;
        this.action = action;
    }

    private void record(Call call) {
        calls.add(call);
        if (action != null && calls.size() >= actionAtCall) {
            Runnable once = action;
            action = null;
            once.run();
        }
    }

    public void recordClockReads(boolean record) {
        this.recordClock = record;
    }

    /** Advances the virtual clock. */
    public void advance(long nanos) {
        nowNs += nanos;
    }

    /** Total PAUSE instructions issued so far. */
    public long pauses() {
        return calls.stream().filter(c -> c.kind().equals("pause")).mapToLong(Call::amount).sum();
    }

    @Override
    public int processorCount() {
        return processors;
    }

    @Override
    public long nanoTime() {
        nowNs += clockReadNs;
        if (recordClock) {
            record(new Call("clock", 0));
        }
        return (long) nowNs;
    }

    @Override
    public void pause(int count) {
        if (count > 0) {
            nowNs += count * nsPerPause;
            record(new Call("pause", count));
        }
    }

    @Override
    public void yieldThread() {
        nowNs += 300;
        record(new Call("yield", 0));
    }

    @Override
    public void sleep(long nanos) {
        nowNs += Math.max(nanos, 300);
        record(new Call("sleep", nanos));
    }

    @Override
    public void park(Object blocker) {
        throw new UnsupportedOperationException("RecordingPlatform cannot block");
    }

    @Override
    public void parkNanos(Object blocker, long nanos) {
        throw new UnsupportedOperationException("RecordingPlatform cannot block");
    }

    @Override
    public void unpark(Thread thread) {
        record(new Call("unpark", 0));
    }

    @Override
    public Thread startThread(String name, Runnable task) {
        throw new UnsupportedOperationException("RecordingPlatform cannot start threads");
    }

    @Override
    public int nextRandom(int bound) {
        return 0;
    }
}
