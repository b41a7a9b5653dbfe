package io.spinlab.sim.experiment;

import io.spinlab.model.machine.MachineProfile;
import io.spinlab.sim.engine.SimulatedPlatform;
import io.spinlab.sim.engine.Simulation;

import java.util.Arrays;
import java.util.Locale;
import java.util.Objects;
import java.util.concurrent.locks.LockSupport;

/**
 * {@code calibrate}'s check of the simulator's rule for waking a parked thread: a thread is asleep
 * only half a context switch after it parks, so an {@code unpark} that comes sooner costs the
 * waker a bare system call and the parker no wake latency. Two shapes, on this host's real threads
 * and in the simulator of its profile: the waker unparks as soon as it sees the parker parking
 * ("at once"), or {@value #ASLEEP_GAP_NS} ns later ("asleep"). Each prints what the {@code unpark}
 * cost the waker and how long the parker took from the unpark to running; nothing here goes into
 * the profile.
 *
 * @param hardwareAtOnce  the real threads, unpark at once
 * @param hardwareAsleep  the real threads, unpark after {@value #ASLEEP_GAP_NS} ns
 * @param simulatedAtOnce the simulator, unpark at once
 * @param simulatedAsleep the simulator, unpark after {@value #ASLEEP_GAP_NS} ns
 */
public record WakeCheck(Figures hardwareAtOnce, Figures hardwareAsleep, Figures simulatedAtOnce,
                        Figures simulatedAsleep) {

    /** How long the waker waits after the parker parked in the "asleep" shape, ns. */
    public static final long ASLEEP_GAP_NS = 20_000;
    /** Wake-ups measured per shape on real threads (after as many again to warm up). */
    public static final int HARDWARE_WAKES = 1_000;
    /** Wake-ups per shape and seed in the simulator. */
    public static final int SIMULATED_WAKES = 200;
    /** Simulated seeds (with the host's noise); the figures are medians over all their wake-ups. */
    public static final int SEEDS = 3;

    public WakeCheck {
        Objects.requireNonNull(hardwareAtOnce, "hardwareAtOnce");
        Objects.requireNonNull(hardwareAsleep, "hardwareAsleep");
        Objects.requireNonNull(simulatedAtOnce, "simulatedAtOnce");
        Objects.requireNonNull(simulatedAsleep, "simulatedAsleep");
    }

    /**
     * One shape's medians.
     *
     * @param unparkNs  what the {@code unpark} call cost the waker, ns
     * @param latencyNs from the unpark to the parker running again, ns
     */
    public record Figures(double unparkNs, double latencyNs) {

        static final Figures NONE = new Figures(Double.NaN, Double.NaN);

        /** The medians of paired samples: unpark costs and latencies, ns. */
        static Figures of(long[] unparkNanos, long[] latencyNanos) {
            if (unparkNanos.length == 0 || unparkNanos.length != latencyNanos.length) {
                throw new IllegalArgumentException("need as many unpark costs as latencies, at least one");
            }
            return new Figures(median(unparkNanos), median(latencyNanos));
        }

        private static double median(long[] values) {
            long[] sorted = values.clone();
            Arrays.sort(sorted);
            return sorted[sorted.length / 2];
        }
    }

    /** A check that was not run. */
    public static WakeCheck unmeasured() {
        return new WakeCheck(Figures.NONE, Figures.NONE, Figures.NONE, Figures.NONE);
    }

    /** Whether every side was measured. */
    public boolean measured() {
        return !Double.isNaN(hardwareAtOnce.unparkNs()) && !Double.isNaN(simulatedAtOnce.unparkNs());
    }

    /**
     * Runs both shapes on this host's real threads and in simulations of {@code host} (seeds 1 to
     * {@value #SEEDS}, the host's noise on).
     *
     * @throws InterruptedException if interrupted while the real threads run
     */
    public static WakeCheck measure(MachineProfile host) throws InterruptedException {
        Objects.requireNonNull(host, "host");
        return new WakeCheck(onHardware(0, HARDWARE_WAKES), onHardware(ASLEEP_GAP_NS, HARDWARE_WAKES),
                simulated(host, 0), simulated(host, ASLEEP_GAP_NS));
    }

    /**
     * {@code wakes} wake-ups of a parked platform thread (after as many to warm up): the waker waits
     * until the parker has announced its park and the JDK reports it waiting, then {@code gapNs}
     * more, and unparks it.
     */
    static Figures onHardware(long gapNs, int wakes) throws InterruptedException {
        Handshake h = new Handshake();
        int total = 2 * wakes;
        long[] latency = new long[total];
        long[] unpark = new long[total];
        Thread parker = Thread.ofPlatform().name("spinlab-calibrate-parker").start(() -> {
            for (int i = 0; i < total; i++) {
                h.parking = true;
                while (!h.signalled) {
                    LockSupport.park(h);
                }
                latency[i] = System.nanoTime() - h.sentAt;
                h.signalled = false;
            }
        });
        for (int i = 0; i < total; i++) {
            while (!h.parking || parker.getState() != Thread.State.WAITING) {
                Thread.onSpinWait();
            }
            long until = System.nanoTime() + gapNs;
            while (System.nanoTime() < until) {
                Thread.onSpinWait();
            }
            h.parking = false;
            h.sentAt = System.nanoTime();
            h.signalled = true;
            long before = System.nanoTime();
            LockSupport.unpark(parker);
            unpark[i] = System.nanoTime() - before;
            while (h.signalled) {
                Thread.onSpinWait();
            }
        }
        parker.join();
        return Figures.of(Arrays.copyOfRange(unpark, wakes, total), Arrays.copyOfRange(latency, wakes, total));
    }

    /** The same shape simulated on {@code host}: {@value #SIMULATED_WAKES} wake-ups per seed, every seed pooled. */
    static Figures simulated(MachineProfile host, long gapNs) {
        long[] unpark = new long[SEEDS * SIMULATED_WAKES];
        long[] latency = new long[SEEDS * SIMULATED_WAKES];
        for (int seed = 1; seed <= SEEDS; seed++) {
            simulate(host, seed, gapNs, SIMULATED_WAKES, unpark, latency, (seed - 1) * SIMULATED_WAKES);
        }
        return Figures.of(unpark, latency);
    }

    /**
     * One simulation of {@code host} with {@code seed}: the waker polls the parker's announcement
     * with single PAUSEs, waits {@code gapNs} more and unparks; samples go to {@code unpark} and
     * {@code latency} from {@code offset}.
     */
    static void simulate(MachineProfile host, long seed, long gapNs, int wakes, long[] unpark, long[] latency,
            int offset) {
        Simulation simulation = Simulation.builder(host).seed(seed).memoryModel(false).noise(true).build();
        SimulatedPlatform platform = simulation.platform();
        Handshake h = new Handshake();
        Thread parker = simulation.startThread("parker", () -> {
            for (int i = 0; i < wakes; i++) {
                h.parking = true;
                while (!h.signalled) {
                    platform.park(h);
                }
                latency[offset + i] = platform.nanoTime() - h.sentAt;
                h.signalled = false;
            }
        });
        simulation.startThread("waker", () -> {
            for (int i = 0; i < wakes; i++) {
                while (!h.parking) {
                    platform.pause(1);
                }
                long until = platform.nanoTime() + gapNs;
                while (platform.nanoTime() < until) {
                    platform.pause(1);
                }
                h.parking = false;
                h.sentAt = platform.nanoTime();
                h.signalled = true;
                long before = platform.nanoTime();
                platform.unpark(parker);
                unpark[offset + i] = platform.nanoTime() - before;
                while (h.signalled) {
                    platform.pause(1);
                }
            }
        });
        simulation.run().requireCompleted();
    }

    /** One line: both shapes on both sides. */
    public String describe() {
        if (!measured()) {
            return "not measured";
        }
        return String.format(Locale.ROOT, "unpark as soon as the parker parks: this host %s, simulated %s; "
                + "%d µs later: this host %s, simulated %s (medians of %d wake-ups, and of %d seeds of %d)",
                text(hardwareAtOnce), text(simulatedAtOnce), ASLEEP_GAP_NS / 1_000, text(hardwareAsleep),
                text(simulatedAsleep), HARDWARE_WAKES, SEEDS, SIMULATED_WAKES);
    }

    private static String text(Figures f) {
        return String.format(Locale.ROOT, "%.1f µs to the waker, %.1f µs to the parker", f.unparkNs() / 1e3,
                f.latencyNs() / 1e3);
    }

    /** What the waker and the parker share (plain in the simulation, where one thread runs at a time). */
    private static final class Handshake {
        volatile boolean parking;
        volatile boolean signalled;
        volatile long sentAt;
    }
}
