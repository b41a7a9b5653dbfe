package io.spinlab.sim.experiment;

import java.util.Arrays;
import java.util.Locale;
import java.util.concurrent.locks.LockSupport;

/**
 * This host's OS micro-costs, measured on real threads for the host profile of
 * {@code calibrate}: a clock read, a park→unpark wake-up (median and spread), a yield with no
 * other thread ready, and how long a 1 ms sleep really lasts. Each figure is a median over many
 * samples; the wake-up's spread becomes the profile's {@code wakeJitterPercent}.
 *
 * @param clockReadNs        one {@code System.nanoTime()}, ns (median of batches of 1,000)
 * @param wakeLatencyNs      from {@code unpark} to the parked thread running again, ns (median)
 * @param wakeP10Ns          the wake-up's 10th percentile, ns
 * @param wakeP90Ns          the wake-up's 90th percentile, ns
 * @param yieldIdleNs        one {@code Thread.yield()} while no other thread of this process runs, ns
 * @param sleepGranularityNs how long {@code Thread.sleep(1)} lasts, ns (median)
 * @param wakeSamples        wake-ups measured
 */
public record HostCosts(double clockReadNs, double wakeLatencyNs, double wakeP10Ns, double wakeP90Ns,
                        double yieldIdleNs, double sleepGranularityNs, int wakeSamples) {

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
        long[] wakes = wakeUps(wakeSamples);
        return new HostCosts(clockRead(), percentile(wakes, 0.5), percentile(wakes, 0.1), percentile(wakes, 0.9),
                yieldIdle(), sleepOneMilli(), wakeSamples);
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

    /** Park→unpark wake-ups: the waker stamps the time, unparks, and waits until the woken thread has read it. */
    private static long[] wakeUps(int samples) throws InterruptedException {
        int total = 2 * samples;
        long[] latency = new long[total];
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
            LockSupport.unpark(waiter);
            while (handshake.signalled) {
                Thread.onSpinWait();
            }
        }
        waiter.join();
        return Arrays.copyOfRange(latency, samples, total);
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
        return String.format(Locale.ROOT, "clock read %.1f ns, wake-up %.1f µs (p10 %.1f, p90 %.1f µs over %d; "
                        + "jitter ±%.0f %%), yield with nobody ready %.0f ns, Thread.sleep(1) %.2f ms", clockReadNs,
                wakeLatencyNs / 1e3, wakeP10Ns / 1e3, wakeP90Ns / 1e3, wakeSamples, wakeJitterPercent(),
                yieldIdleNs, sleepGranularityNs / 1e6);
    }
}
