package io.spinlab.sim.engine;

/**
 * Limits that end a run with a clear message instead of letting it run on: virtual time,
 * scheduling steps, and wall-clock time. Hitting one is outcome
 * {@link Outcome#BUDGET_EXHAUSTED}, never a hang.
 *
 * <p>The virtual-time and step budgets are deterministic: a run that exhausts one does so at
 * the same point on every host. The wall-clock budget is a safety net against a host that is
 * too slow or a livelock; whether it fires depends on the host, so it should be generous.
 *
 * @param maxVirtualNanos virtual time a run may reach, ns (positive)
 * @param maxSteps        scheduling events a run may process (positive)
 * @param maxWallMillis   real time a run may take, ms (positive)
 */
public record Budgets(long maxVirtualNanos, long maxSteps, long maxWallMillis) {

    private static final Budgets DEFAULTS = new Budgets(60_000_000_000L, 200_000_000L, 120_000L);

    public Budgets {
        check("maxVirtualNanos", maxVirtualNanos);
        check("maxSteps", maxSteps);
        check("maxWallMillis", maxWallMillis);
    }

    /** 60 s of virtual time, 200 million steps, 2 minutes of wall time. */
    public static Budgets defaults() {
        return DEFAULTS;
    }

    public Budgets withMaxVirtualNanos(long nanos) {
        return new Budgets(nanos, maxSteps, maxWallMillis);
    }

    public Budgets withMaxSteps(long steps) {
        return new Budgets(maxVirtualNanos, steps, maxWallMillis);
    }

    public Budgets withMaxWallMillis(long millis) {
        return new Budgets(maxVirtualNanos, maxSteps, millis);
    }

    private static void check(String name, long value) {
        if (value <= 0) {
            throw new IllegalArgumentException("budgets: " + name + " = " + value + "; allowed 1 or more");
        }
    }
}
