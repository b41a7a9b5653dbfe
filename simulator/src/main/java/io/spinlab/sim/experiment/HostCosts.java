package io.spinlab.sim.experiment;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.Arrays;
import java.util.Locale;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.LongAdder;
import java.util.concurrent.locks.LockSupport;

/**
 * This host's micro-costs, measured on real threads for the host profile of {@code calibrate}:
 * a clock read, an uncontended CAS, a cache line handed between two cores (by CAS, and to a thread
 * waiting by reads), a park→unpark
 * wake-up (median and spread) and what the {@code unpark} itself costs the waker, a yield with no
 * other thread ready and one with a ready thread (a context switch), how long a 1 ms sleep
 * really lasts, and how many bytes a core stores per ns when it copies within its L1 cache. Each figure is a median over many samples; the wake-up's spread becomes the
 * profile's {@code wakeJitterPercent}.
 *
 * @param clockReadNs        one {@code System.nanoTime()}, ns (median of batches of 1,000)
 * @param wakeLatencyNs      from {@code unpark} to the parked thread running again, ns (median)
 * @param wakeP10Ns          the wake-up's 10th percentile, ns
 * @param wakeP90Ns          the wake-up's 90th percentile, ns
 * @param yieldIdleNs        one {@code Thread.yield()} while no other thread of this process runs, ns
 * @param sleepGranularityNs how long {@code Thread.sleep(1)} lasts, ns (median)
 * @param wakeSamples        wake-ups measured
 * @param casNs              one uncontended {@code compareAndSet} on a field only this thread touches, ns
 * @param lineTransferNs     one hand-over of a cache line between two threads CASing it (half a CAS
 *                           ping-pong round trip, as the presets' transfers are measured), ns; NaN with
 *                           fewer than 2 processors
 * @param unparkNs           what one {@code unpark} of a parked thread costs the waker, ns (median)
 * @param yieldReadyNs       one {@code Thread.yield()} while more threads are runnable than there are
 *                           processors (a context switch to another thread), ns
 * @param storeBytesPerNs    bytes {@code System.arraycopy} stores per ns copying 8 KiB between two
 *                           arrays that stay in the L1 cache (median of batches); NaN when not measured
 * @param readHandoverNs     one hand-over of a cache line to a thread waiting by reads with a PAUSE between
 *                           them, which then stores the next value (half a ping-pong round trip), ns; NaN
 *                           with fewer than 2 processors or when not measured
 */
public record HostCosts(double clockReadNs, double wakeLatencyNs, double wakeP10Ns, double wakeP90Ns,
                        double yieldIdleNs, double sleepGranularityNs, int wakeSamples, double casNs,
                        double lineTransferNs, double unparkNs, double yieldReadyNs, double storeBytesPerNs,
                        double readHandoverNs) {

    /** Every figure but the reading hand-over (NaN). */
    public HostCosts(double clockReadNs, double wakeLatencyNs, double wakeP10Ns, double wakeP90Ns,
            double yieldIdleNs, double sleepGranularityNs, int wakeSamples, double casNs,
            double lineTransferNs, double unparkNs, double yieldReadyNs, double storeBytesPerNs) {
        this(clockReadNs, wakeLatencyNs, wakeP10Ns, wakeP90Ns, yieldIdleNs, sleepGranularityNs, wakeSamples, casNs,
                lineTransferNs, unparkNs, yieldReadyNs, storeBytesPerNs, Double.NaN);
    }

    /** Every figure but the store rate and the reading hand-over (NaN). */
    public HostCosts(double clockReadNs, double wakeLatencyNs, double wakeP10Ns, double wakeP90Ns,
            double yieldIdleNs, double sleepGranularityNs, int wakeSamples, double casNs,
            double lineTransferNs, double unparkNs, double yieldReadyNs) {
        this(clockReadNs, wakeLatencyNs, wakeP10Ns, wakeP90Ns, yieldIdleNs, sleepGranularityNs, wakeSamples, casNs,
                lineTransferNs, unparkNs, yieldReadyNs, Double.NaN);
    }

    /** The OS costs alone, without the atomics, line-transfer, unpark and ready-yield figures (NaN). */
    public HostCosts(double clockReadNs, double wakeLatencyNs, double wakeP10Ns, double wakeP90Ns,
            double yieldIdleNs, double sleepGranularityNs, int wakeSamples) {
        this(clockReadNs, wakeLatencyNs, wakeP10Ns, wakeP90Ns, yieldIdleNs, sleepGranularityNs, wakeSamples,
                Double.NaN, Double.NaN, Double.NaN, Double.NaN, Double.NaN, Double.NaN);
    }

    /** Wake-ups a default measurement takes (after as many again to warm up): about a second. */
    public static final int DEFAULT_WAKE_SAMPLES = 2_000;

    /**
     * The wake latency's noise as the profile field takes it: the half-width, in % of the median,
     * of a uniform draw spanning the measured 10th to 90th percentile (a uniform draw's central
     * 80 % is 0.8 of its width): (p90 − p10) / 0.8 / 2 / median × 100, at most 100.
     */
    public double wakeJitterPercent() {
        if (!(wakeLatencyNs > 0)) {
            return 0;
        }
        return Math.min(100, (wakeP90Ns - wakeP10Ns) / 0.8 / 2 / wakeLatencyNs * 100);
    }

    /** Measures this host with {@code wakeSamples} wake-ups. */
    public static HostCosts measure(int wakeSamples) throws InterruptedException {
        if (wakeSamples < 10) {
            throw new IllegalArgumentException("wakeSamples = " + wakeSamples + "; allowed 10 or more");
        }
        long[][] wakes = wakeUps(wakeSamples);
        long[] latency = wakes[0];
        long[] unpark = wakes[1];
        return new HostCosts(clockRead(), percentile(latency, 0.5), percentile(latency, 0.1),
                percentile(latency, 0.9), yieldIdle(), sleepOneMilli(), wakeSamples, cas(), lineTransfer(),
                percentile(unpark, 0.5), yieldReady(), storeRate(), readHandover());
    }

    /**
     * What the host profile's {@code invalidationNs} takes from these figures: the reading hand-over less
     * the CAS one (the simulator charges a reader's hand-over the writer's upgrade of the line the reader
     * shares plus one transfer), and 0 where the reading hand-over is the quicker; NaN unless both were
     * measured.
     */
    public double invalidationNs() {
        if (!(lineTransferNs > 0) || !(readHandoverNs > 0)) {
            return Double.NaN;
        }
        return Math.max(0, readHandoverNs - lineTransferNs);
    }

    /** Bytes in one copy of {@link #storeRate}: 8 KiB, so that source and target fit a 32 KiB L1 together. */
    private static final int COPY_LONGS = 1_024;

    /**
     * Store bandwidth within L1: batches of 1,000 {@code System.arraycopy}s of 8 KiB between two
     * arrays, after a round to let the JIT compile the loop; bytes per ns of the median batch.
     */
    private static double storeRate() {
        long[] source = new long[COPY_LONGS];
        long[] target = new long[COPY_LONGS];
        Arrays.fill(source, 7);
        long[] batches = new long[100];
        long sink = 0;
        for (int round = 0; round < 2; round++) {
            for (int b = 0; b < batches.length; b++) {
                long start = System.nanoTime();
                for (int i = 0; i < 1_000; i++) {
                    System.arraycopy(source, 0, target, 0, COPY_LONGS);
                    sink += target[i & (COPY_LONGS - 1)];
                }
                batches[b] = System.nanoTime() - start;
            }
        }
        if (sink == 42) {
            System.out.print(""); // keeps the copies observable to the JIT
        }
        return COPY_LONGS * 8.0 * 1_000 / Math.max(1, percentile(batches, 0.5));
    }

    private static final VarHandle CELL_VALUE;

    static {
        try {
            CELL_VALUE = MethodHandles.lookup().findVarHandle(Cell.class, "value", long.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    /** A long with room around it, so that nothing else shares its cache line. */
    private static final class Cell {
        @SuppressWarnings("unused")
        long p1, p2, p3, p4, p5, p6, p7;
        volatile long value;
        @SuppressWarnings("unused")
        long q1, q2, q3, q4, q5, q6, q7;
    }

    /** Uncontended CAS: batches of 10,000 successful compareAndSets on a private field. */
    private static double cas() {
        Cell cell = new Cell();
        long[] batches = new long[100];
        for (int round = 0; round < 2; round++) {
            for (int b = 0; b < batches.length; b++) {
                long start = System.nanoTime();
                for (int i = 0; i < 10_000; i++) {
                    long v = cell.value;
                    CELL_VALUE.compareAndSet(cell, v, v + 1);
                }
                batches[b] = System.nanoTime() - start;
            }
        }
        return percentile(batches, 0.5) / 10_000.0;
    }

    /**
     * A cache line handed between two threads CASing it, as the core-to-core-latency tool the presets'
     * transfers come from measures it: each retries a CAS from the value of its turn to the next at once
     * until it succeeds, so every success moves the line to the other core. Half the median round trip of
     * batches of 1,000 hand-overs. NaN on one processor, where the two threads could not spin at once.
     */
    static double lineTransfer() throws InterruptedException {
        return pingPong(true);
    }

    /**
     * A cache line handed to a thread waiting by reads: each waits until the shared counter has its parity,
     * with a PAUSE between reads (as on any waiting core), and then stores the next value, so every store
     * moves the line to the other core, which had it shared. Half the median round trip of batches of
     * 1,000 hand-overs; NaN on one processor.
     */
    static double readHandover() throws InterruptedException {
        return pingPong(false);
    }

    private static double pingPong(boolean cas) throws InterruptedException {
        if (Runtime.getRuntime().availableProcessors() < 2) {
            return Double.NaN;
        }
        int batches = 200;
        int perBatch = 1_000;
        Cell cell = new Cell();
        long total = 2L * batches * perBatch;
        long[] times = new long[batches];
        Thread partner = Thread.ofPlatform().name("spinlab-calibrate-partner").start(() -> {
            for (long next = 1; next < total; next += 2) {
                handOver(cell, next, cas);
            }
        });
        long next = 0;
        for (int b = 0; b < batches; b++) {
            long start = System.nanoTime();
            for (int i = 0; i < perBatch; i++) {
                handOver(cell, next, cas);
                next += 2;
            }
            times[b] = System.nanoTime() - start;
        }
        partner.join();
        // Each batch is perBatch round trips of two hand-overs.
        return percentile(Arrays.copyOfRange(times, batches / 2, batches), 0.5) / perBatch / 2;
    }

    /** Waits for the counter to read {@code turn}, then makes it {@code turn + 1}. */
    private static void handOver(Cell cell, long turn, boolean cas) {
        if (cas) {
            while (!CELL_VALUE.compareAndSet(cell, turn, turn + 1)) {
                // retry at once, as the core-to-core-latency tool does
            }
        } else {
            while (cell.value != turn) {
                Thread.onSpinWait();
            }
            cell.value = turn + 1;
        }
    }

    /**
     * A yield that switches: processors + 1 threads yield in a loop for 200 ms, so a yielding thread
     * always finds another ready; each processor's time divided by the yields it ran.
     */
    private static double yieldReady() throws InterruptedException {
        int processors = Runtime.getRuntime().availableProcessors();
        int threads = processors + 1;
        LongAdder yields = new LongAdder();
        CountDownLatch ready = new CountDownLatch(threads);
        Flag stop = new Flag();
        Thread[] yielders = new Thread[threads];
        for (int t = 0; t < threads; t++) {
            yielders[t] = Thread.ofPlatform().name("spinlab-calibrate-yielder-" + t).start(() -> {
                ready.countDown();
                long n = 0;
                while (!stop.raised) {
                    Thread.yield();
                    n++;
                }
                yields.add(n);
            });
        }
        ready.await();
        long start = System.nanoTime();
        Thread.sleep(200);
        stop.raised = true;
        long elapsed = System.nanoTime() - start;
        for (Thread t : yielders) {
            t.join();
        }
        long count = yields.sum();
        return count == 0 ? Double.NaN : (double) elapsed * processors / count;
    }

    /** A stop flag for measuring threads. */
    private static final class Flag {
        volatile boolean raised;
    }

    private static double clockRead() {
        long[] batches = new long[200];
        // Twice: the first round warms the loop up.
        for (int round = 0; round < 2; round++) {
            for (int b = 0; b < batches.length; b++) {
                long start = System.nanoTime();
                for (int i = 0; i < 1_000; i++) {
                    System.nanoTime();
                }
                batches[b] = System.nanoTime() - start;
            }
        }
        return percentile(batches, 0.5) / 1_000.0;
    }

    /**
     * Park→unpark wake-ups: the waker stamps the time, unparks, and waits until the woken thread has
     * read it. Returns the latencies and what each {@code unpark} call took the waker.
     */
    private static long[][] wakeUps(int samples) throws InterruptedException {
        int total = 2 * samples;
        long[] latency = new long[total];
        long[] unparkCost = new long[total];
        Handshake handshake = new Handshake();
        Thread waiter = Thread.ofPlatform().name("spinlab-calibrate-waiter").start(() -> {
            for (int i = 0; i < total; i++) {
                while (!handshake.signalled) {
                    LockSupport.park(handshake);
                }
                latency[i] = System.nanoTime() - handshake.sentAt;
                handshake.signalled = false;
            }
        });
        for (int i = 0; i < total; i++) {
            // Let the waiter park for good before the next wake-up.
            Thread.sleep(0, 200_000);
            handshake.sentAt = System.nanoTime();
            handshake.signalled = true;
            long before = System.nanoTime();
            LockSupport.unpark(waiter);
            unparkCost[i] = System.nanoTime() - before;
            while (handshake.signalled) {
                Thread.onSpinWait();
            }
        }
        waiter.join();
        return new long[][] {Arrays.copyOfRange(latency, samples, total), Arrays.copyOfRange(unparkCost, samples,
                total)};
    }

    /** What the waker and the waiter share. */
    private static final class Handshake {
        volatile long sentAt;
        volatile boolean signalled;
    }

    private static double yieldIdle() {
        long[] batches = new long[50];
        for (int b = 0; b < batches.length; b++) {
            long start = System.nanoTime();
            for (int i = 0; i < 100; i++) {
                Thread.yield();
            }
            batches[b] = System.nanoTime() - start;
        }
        return percentile(batches, 0.5) / 100.0;
    }

    private static double sleepOneMilli() throws InterruptedException {
        long[] sleeps = new long[20];
        for (int i = 0; i < sleeps.length; i++) {
            long start = System.nanoTime();
            Thread.sleep(1);
            sleeps[i] = System.nanoTime() - start;
        }
        return percentile(sleeps, 0.5);
    }

    /** The {@code q} quantile of {@code values} (nearest rank), as a double. */
    static double percentile(long[] values, double q) {
        long[] sorted = values.clone();
        Arrays.sort(sorted);
        int index = (int) Math.min(sorted.length - 1, Math.max(0, Math.round(q * (sorted.length - 1))));
        return sorted[index];
    }

    /** One line: {@code clock read 30.4 ns, wake-up 6.1 µs (p10 4.2, p90 9.4 µs), ...}. */
    public String describe() {
        String os = String.format(Locale.ROOT, "clock read %.1f ns, wake-up %.1f µs (p10 %.1f, p90 %.1f µs over %d; "
                        + "jitter ±%.0f %%), yield with nobody ready %.0f ns, Thread.sleep(1) %.2f ms", clockReadNs,
                wakeLatencyNs / 1e3, wakeP10Ns / 1e3, wakeP90Ns / 1e3, wakeSamples, wakeJitterPercent(),
                yieldIdleNs, sleepGranularityNs / 1e6);
        if (Double.isNaN(casNs)) {
            return os;
        }
        return os + String.format(Locale.ROOT, ", CAS %.1f ns, line transfer %s, unpark %.1f µs to the waker, yield "
                        + "to a ready thread %s", casNs,
                Double.isNaN(lineTransferNs) ? "not measurable (one processor)"
                        : String.format(Locale.ROOT, "%.0f ns", lineTransferNs) + (readHandoverNs > 0
                        ? String.format(Locale.ROOT, " (CAS ping-pong; to a reader %.0f ns)", readHandoverNs) : ""),
                unparkNs / 1e3, Double.isNaN(yieldReadyNs) ? "not measured"
                        : String.format(Locale.ROOT, "%.0f ns", yieldReadyNs))
                + (Double.isNaN(storeBytesPerNs) ? ""
                        : String.format(Locale.ROOT, ", stores %.1f bytes/ns copying within L1", storeBytesPerNs));
    }
}
