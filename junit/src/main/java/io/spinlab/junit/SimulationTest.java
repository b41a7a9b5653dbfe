package io.spinlab.junit;

import org.junit.jupiter.api.TestTemplate;
import org.junit.jupiter.api.extension.ExtendWith;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * A test that runs on simulated machines: JUnit calls it once per machine, tuning and seed (one
 * invocation each, named {@code skylake-i7-6700, seed 3}), with a {@link Sim} parameter for that
 * run.
 *
 * <pre>{@code
 * @SimulationTest(machines = {"skylake-i7-6700", "sandybridge-e5-1650 logicalProcessors=64"}, seeds = 5)
 * void lockStaysExclusive(Sim sim) {
 *     MyLock lock = new MyLock();
 *     Counter counter = new Counter();
 *     sim.threads(8, i -> { for (int k = 0; k < 100; k++) { lock.lock(); counter.value++; lock.unlock(); } });
 *     sim.run();
 *     assertThat(counter.value).isEqualTo(800);
 * }
 * }</pre>
 *
 * <p>The method runs on an instance of the <em>instrumented copy</em> of the test class, loaded with
 * every class of the test class's package (and of {@link #guestPackages}) by the simulator's guest
 * class loader: the classes under test run unmodified, but their shared-memory accesses, spins,
 * parks and clock reads are the simulated machine's. That instance is made with the no-argument
 * constructor; {@code @BeforeEach} and {@code @AfterEach} methods run on JUnit's own instance, so
 * keep per-invocation setup in the method. Nested (inner) test classes are not supported.
 *
 * <p>A failure prints the machine as command-line options, the tuning, the seed, how to replay the
 * invocation ({@code -Dspinlab.sim.machine=... -Dspinlab.sim.seed=...}), the last scheduling points
 * before it as a table with one column per thread, and writes the run's Chrome trace to
 * {@code target/spinlab/}. A run in which no thread ever waited says so.
 *
 * <p>Needs JDK 25 and {@code --add-opens java.base/java.lang=ALL-UNNAMED} in Surefire's {@code argLine}.
 */
@Target(ElementType.METHOD)
@Retention(RetentionPolicy.RUNTIME)
@Documented
@TestTemplate
@ExtendWith(SimulationExtension.class)
public @interface SimulationTest {

    /**
     * The machines: a preset name, optionally with fields changed ({@code "skylake-i7-6700 pauseCycles=300
     * logicalProcessors=64"}), or the path of a machine profile file ({@code .json}, {@code .yaml}).
     */
    String[] machines() default {"skylake-i7-6700"};

    /** How many seeds per machine and tuning: seeds 1 to this. Ignored when {@link #seed} is given. */
    int seeds() default 5;

    /** Exactly these seeds (e.g. to replay one); empty (the default): 1 to {@link #seeds}. */
    long[] seed() default {};

    /** The tunings (runtime generations such as {@code net6}, {@code netcore2.0}) for spinlab's primitives. */
    String[] tunings() default {"current"};

    /** Packages besides the test class's own to load instrumented, e.g. {@code "org.agrona."}. */
    String[] guestPackages() default {};

    /** How many of the last scheduling points a failure report shows. */
    int schedulingPoints() default 40;

    /** Virtual time a run may take before it fails as out of budget, ms. */
    long maxVirtualMillis() default 60_000;
}
