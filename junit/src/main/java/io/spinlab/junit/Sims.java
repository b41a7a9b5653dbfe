package io.spinlab.junit;

import io.spinlab.model.machine.MachineProfile;
import io.spinlab.model.tuning.Tuning;
import io.spinlab.sim.memory.GuestClassLoader;

import java.lang.invoke.SerializedLambda;
import java.util.List;
import java.util.Objects;

/**
 * One simulated run from inside any test, for machines, thread counts and seeds that are drawn
 * rather than listed: a {@code @PropertyTest} draws them, calls {@code Sims.run}, and a failure
 * (with its {@linkplain FailureReport report}) is shrunk like any other.
 *
 * <pre>{@code
 * @PropertyTest(tries = 30)
 * void lockStaysExclusive(Draws draws) {
 *     int processors = draws.draw("processors", Gens.integers(1, 16));
 *     int threads = draws.draw("threads", Gens.integers(2, 8));
 *     long seed = draws.draw("seed", Gens.longs(0, 1_000));
 *     Sims.run("skylake-i7-6700 logicalProcessors=" + processors, seed, sim -> exclusive(sim, threads));
 * }
 * }</pre>
 *
 * <p>The body is a lambda or method reference written in the test class; it runs as the
 * instrumented copy of that code (see {@link SimulationTest} for what that means), with the
 * values it captures (JDK values only; a captured {@code this} becomes a fresh instance).
 */
public final class Sims {

    private static final int SCHEDULING_POINTS = 40;
    private static final long MAX_VIRTUAL_MILLIS = 60_000;

    private Sims() {
    }

    /** Runs {@code body} on {@code machine} (see {@link SimulationTest#machines}) with seed {@code seed}, tuning current. */
    public static Sim run(String machine, long seed, SimBody body) {
        return run(machine, "current", seed, body);
    }

    /**
     * Runs {@code body} on {@code machine} with {@code tuning} and {@code seed}.
     *
     * @return the run's Sim, for its metrics
     * @throws SimulationFailure if the body failed, with the failure report
     * @throws IllegalArgumentException for an unknown machine or tuning, or a body that cannot run as guest code
     */
    public static Sim run(String machine, String tuning, long seed, SimBody body) {
        Objects.requireNonNull(body, "body");
        TestJvm.requireSimulator();
        MachineProfile profile = Machines.parse(Objects.requireNonNull(machine, "machine"));
        Tuning parsed = Tuning.parse(Objects.requireNonNull(tuning, "tuning"));
        SimCase simCase = new SimCase(profile, parsed, seed, guestPrefixesOf(body), SCHEDULING_POINTS,
                MAX_VIRTUAL_MILLIS);
        Sim sim = simCase.newSim();
        SimBody guest = GuestCode.rebind(body, SimBody.class, sim.guestLoader(), "the body given to Sims.run");
        try {
            guest.run(sim);
        } catch (Throwable failure) {
            throw Reports.failure(testName(body), simCase.displayName(true), sim, failure);
        }
        return sim;
    }

    /** The guest packages for code written where {@code code} was: its class's package. */
    static List<String> guestPrefixesOf(Object code) {
        if (code.getClass().getClassLoader() instanceof GuestClassLoader guest) {
            return guest.guestPrefixes();
        }
        return SimCase.guestPrefixes(ownerOf(code));
    }

    /** The class in which the lambda {@code code} was written (its own class if it is not a lambda). */
    static Class<?> ownerOf(Object code) {
        SerializedLambda lambda = GuestCode.lambdaOf(code);
        if (lambda == null) {
            return code.getClass();
        }
        try {
            return Class.forName(lambda.getImplClass().replace('/', '.'), false, code.getClass().getClassLoader());
        } catch (ClassNotFoundException e) {
            return code.getClass();
        }
    }

    private static String testName(Object code) {
        return ownerOf(code).getSimpleName();
    }
}
