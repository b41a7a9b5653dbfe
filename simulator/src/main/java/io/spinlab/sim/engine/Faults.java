package io.spinlab.sim.engine;

import io.spinlab.sim.workload.Durations;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Faults the simulator injects, all drawn from the run's seed and all off by default
 * ({@link #none()}). They are legal behaviours of a real OS that a correct primitive must
 * survive; a run with faults checks progress and contracts, not speed.
 *
 * @param spuriousWakeupRate     probability that a park which blocks also gets a spurious
 *                               wake-up, at a uniformly drawn time within
 *                               {@code spuriousWakeupMaxDelayNanos} (plus the wake latency)
 * @param spuriousWakeupMaxDelayNanos latest spurious wake-up after the park, ns (≥ 0)
 * @param preemptionRate         probability, at each scheduling point of a running thread,
 *                               that it is taken off its processor for {@code preemptionNanos}
 *                               (a lock holder descheduled); a thread so held off runs at
 *                               least one operation before it can be held off again
 * @param preemptionNanos        how long an injected preemption holds the thread off, ns (≥ 0)
 * @param delayedWakeupRate      probability that an unpark's wake-up takes longer than the
 *                               machine's wake latency, by a uniform extra delay
 * @param delayedWakeupMaxNanos  the largest extra delay, ns (≥ 0)
 * @param clockJitterNanos       each clock read adds a uniform error in {@code [0, jitter]} ns;
 *                               the clock stays monotonic
 */
public record Faults(
        double spuriousWakeupRate,
        long spuriousWakeupMaxDelayNanos,
        double preemptionRate,
        long preemptionNanos,
        double delayedWakeupRate,
        long delayedWakeupMaxNanos,
        long clockJitterNanos) {

    private static final Faults NONE = new Faults(0, 0, 0, 0, 0, 0, 0);

    public Faults {
        checkRate("spuriousWakeupRate", spuriousWakeupRate);
        checkRate("preemptionRate", preemptionRate);
        checkRate("delayedWakeupRate", delayedWakeupRate);
        checkNanos("spuriousWakeupMaxDelayNanos", spuriousWakeupMaxDelayNanos);
        checkNanos("preemptionNanos", preemptionNanos);
        checkNanos("delayedWakeupMaxNanos", delayedWakeupMaxNanos);
        checkNanos("clockJitterNanos", clockJitterNanos);
    }

    /** No faults: the default. */
    public static Faults none() {
        return NONE;
    }

    /**
     * A harsh mix for contract checks: 30 % of blocking parks also wake spuriously within
     * 20 µs; 2 % of scheduling points preempt the thread for 50 µs; 20 % of wake-ups are up to
     * 30 µs late; clock reads jitter by up to 100 ns.
     */
    public static Faults chaos() {
        return new Faults(0.3, 20_000, 0.02, 50_000, 0.2, 30_000, 100);
    }

    /** True if any fault is on. */
    public boolean any() {
        return spuriousWakeupRate > 0 || preemptionRate > 0 || delayedWakeupRate > 0 || clockJitterNanos > 0;
    }

    public Faults withSpuriousWakeups(double rate, long maxDelayNanos) {
        return new Faults(rate, maxDelayNanos, preemptionRate, preemptionNanos, delayedWakeupRate,
                delayedWakeupMaxNanos, clockJitterNanos);
    }

    public Faults withPreemption(double rate, long nanos) {
        return new Faults(spuriousWakeupRate, spuriousWakeupMaxDelayNanos, rate, nanos, delayedWakeupRate,
                delayedWakeupMaxNanos, clockJitterNanos);
    }

    public Faults withDelayedWakeups(double rate, long maxNanos) {
        return new Faults(spuriousWakeupRate, spuriousWakeupMaxDelayNanos, preemptionRate, preemptionNanos, rate,
                maxNanos, clockJitterNanos);
    }

    public Faults withClockJitter(long nanos) {
        return new Faults(spuriousWakeupRate, spuriousWakeupMaxDelayNanos, preemptionRate, preemptionNanos,
                delayedWakeupRate, delayedWakeupMaxNanos, nanos);
    }

    /** {@code none}, or the faults that are on, e.g. {@code spurious=0.3/20000ns,preempt=0.02/50000ns}. */
    public String describe() {
        if (!any()) {
            return "none";
        }
        List<String> parts = new ArrayList<>();
        if (spuriousWakeupRate > 0) {
            parts.add(String.format(Locale.ROOT, "spurious=%s/%dns", rate(spuriousWakeupRate),
                    spuriousWakeupMaxDelayNanos));
        }
        if (preemptionRate > 0) {
            parts.add(String.format(Locale.ROOT, "preempt=%s/%dns", rate(preemptionRate), preemptionNanos));
        }
        if (delayedWakeupRate > 0) {
            parts.add(String.format(Locale.ROOT, "delayed-wake=%s/%dns", rate(delayedWakeupRate),
                    delayedWakeupMaxNanos));
        }
        if (clockJitterNanos > 0) {
            parts.add("jitter=" + clockJitterNanos + "ns");
        }
        return String.join(",", parts);
    }

    /** What {@link #parse} accepts, for error messages and help. */
    public static final String SYNTAX = "none, chaos, or comma-separated spurious=RATE/MAXDELAY, preempt=RATE/LENGTH, "
            + "delayed-wake=RATE/MAXDELAY, jitter=AMOUNT (RATE a probability 0..1, times like 20us or 50000ns)";

    /**
     * The faults {@code text} names: {@code none}, {@code chaos}, or what {@link #describe()}
     * writes (times may carry any unit {@link Durations} reads).
     *
     * @throws IllegalArgumentException naming the part that is wrong and the syntax
     */
    public static Faults parse(String text) {
        String trimmed = text.strip();
        if (trimmed.equals("none")) {
            return none();
        }
        if (trimmed.equals("chaos")) {
            return chaos();
        }
        if (trimmed.isEmpty()) {
            throw new IllegalArgumentException("empty faults; valid: " + SYNTAX);
        }
        Faults faults = none();
        List<String> seen = new ArrayList<>();
        for (String part : trimmed.split(",", -1)) {
            int eq = part.indexOf('=');
            String kind = eq < 0 ? part.strip() : part.substring(0, eq).strip();
            if (eq < 0 || !List.of("spurious", "preempt", "delayed-wake", "jitter").contains(kind)) {
                throw new IllegalArgumentException("fault '" + part.strip() + "' is not valid; valid: " + SYNTAX);
            }
            if (seen.contains(kind)) {
                throw new IllegalArgumentException("fault '" + kind + "' is given twice in '" + trimmed + "'");
            }
            seen.add(kind);
            String value = part.substring(eq + 1).strip();
            if (kind.equals("jitter")) {
                faults = faults.withClockJitter(Durations.parseNanos("fault jitter", value));
                continue;
            }
            int slash = value.indexOf('/');
            if (slash < 0) {
                throw new IllegalArgumentException("fault '" + part.strip() + "' must be " + kind + "=RATE/TIME; valid: "
                        + SYNTAX);
            }
            double rate = parseRate(kind, value.substring(0, slash));
            long nanos = Durations.parseNanos("fault " + kind, value.substring(slash + 1));
            faults = switch (kind) {
                case "spurious" -> faults.withSpuriousWakeups(rate, nanos);
                case "preempt" -> faults.withPreemption(rate, nanos);
                default -> faults.withDelayedWakeups(rate, nanos);
            };
        }
        return faults;
    }

    private static double parseRate(String kind, String text) {
        try {
            double rate = Double.parseDouble(text.strip());
            checkRate(kind + " rate", rate);
            return rate;
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("fault " + kind + " rate '" + text.strip() + "' is not a number; "
                    + "allowed 0..1", e);
        }
    }

    private static String rate(double value) {
        return Double.toString(value);
    }

    private static void checkRate(String name, double value) {
        if (!(value >= 0 && value <= 1)) {
            throw new IllegalArgumentException("faults: " + name + " = " + value + " is out of range; allowed 0..1");
        }
    }

    private static void checkNanos(String name, long value) {
        if (value < 0) {
            throw new IllegalArgumentException("faults: " + name + " = " + value + " is negative; allowed 0 or more");
        }
    }

    @Override
    public String toString() {
        return describe();
    }
}
