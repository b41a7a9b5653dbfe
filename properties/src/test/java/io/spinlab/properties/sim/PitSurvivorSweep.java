package io.spinlab.properties.sim;

import io.spinlab.model.tuning.GlobalQueuePolicy;
import io.spinlab.model.tuning.MonitorPolicy;
import io.spinlab.model.tuning.SpinLockPolicy;
import io.spinlab.model.tuning.Tuning;
import io.spinlab.properties.engine.Gen;
import io.spinlab.properties.engine.Property;
import io.spinlab.properties.engine.PropertyFailure;
import io.spinlab.properties.mutation.Mutation;
import io.spinlab.properties.mutation.PitMutants;
import io.spinlab.properties.sim.CollectionWorld.Kind;
import io.spinlab.properties.sim.guest.ThreadPoolScenario;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.function.Predicate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * PIT's undetected mutants, planted one by one in the simulator's generated-world properties: a tool
 * for impl/MUTATION.md, not part of the build. PIT runs impl's tests only; a mutant that survives them
 * because only an interleaving inside the primitive shows it (race-only) may still be caught by a
 * property of {@code properties}, which PIT cannot run (the simulator defines guest classes from
 * their class files). This sweep reads a PIT report, rebuilds each undetected mutant of impl on the
 * real class ({@link PitMutants}) and searches the worlds of every property that exercises that class
 * for one that tells the mutant from the real class: the property fails with the mutant planted and
 * holds without it, under the same bounds.
 *
 * <pre>
 * ./mvnw -B -pl properties test-compile surefire:test@default-test -Dsurefire.failIfNoSpecifiedTests=false \
 *     -Dtest=PitSurvivorSweep -Dspinlab.pit.survivors=impl/target/pit-reports/mutations.xml \
 *     [-Dspinlab.pit.survivors.tries=150] [-Dspinlab.pit.survivors.only=REGEX] [-Dspinlab.pit.survivors.threads=1]
 * </pre>
 *
 * It prints one {@code PIT-SURVIVOR} line per mutant and writes them, tab-separated, to
 * {@code properties/target/pit-survivors.tsv}. Skipped when no report is named.
 */
@Timeout(value = 10, unit = TimeUnit.HOURS)
class PitSurvivorSweep {

    /** A generated-world property that can be searched with a mutant planted. */
    private record Checker(String name, Predicate<String> covers, SearchFor search) {
    }

    /** Searches {@code tries} worlds of seed 1; the failure, or null if every world passed. */
    private interface SearchFor {
        PropertyFailure search(Mutation mutant, int tries);
    }

    /**
     * Searches for a world that tells the mutant from the real class: one where the property fails with
     * the mutant planted and holds without it (a world the real class fails as well, such as a correct
     * world longer than a planted search's virtual-time bound, tells nothing and counts as passing).
     */
    private static <W> PropertyFailure search(Gen<W> worlds, Mutation mutant, int tries, Consumer<W> withMutant,
            Consumer<W> without) {
        return catchThrowableOfType(PropertyFailure.class, () ->
                Property.forAll(worlds).named("planted: " + mutant).seed(1).tries(tries).maxShrinkAttempts(0)
                        .run(world -> {
                            try {
                                withMutant.accept(world);
                            } catch (AssertionError | RuntimeException planted) {
                                try {
                                    without.accept(world);
                                } catch (AssertionError | RuntimeException control) {
                                    return; // the real class fails it too: not a world that tells them apart
                                }
                                throw planted;
                            }
                        }));
    }

    private static List<Checker> checkers() {
        List<Checker> checkers = new ArrayList<>();
        for (Kind kind : Kind.values()) {
            String prefix = switch (kind) {
                case CONCURRENT_QUEUE -> "io.spinlab.impl.collections.ConcurrentQueue";
                case CONCURRENT_STACK -> "io.spinlab.impl.collections.ConcurrentStack";
                case QUEUE_SEGMENT_QUEUE -> "io.spinlab.impl.collections.QueueSegmentQueue";
                case WORK_STEALING_QUEUE -> "io.spinlab.impl.collections.WorkStealingQueue";
            };
            checkers.add(new Checker("collections " + kind, c -> c.startsWith(prefix),
                    (m, tries) -> search(CollectionsExactlyOnceProperties.worlds(kind), m, tries,
                            w -> CollectionsExactlyOnceProperties.assertEveryItemTakenOnce(w, m),
                            CollectionsExactlyOnceProperties::assertEveryItemTakenOnceWithinThePlantedBound)));
        }
        Predicate<String> pool = c -> c.startsWith("io.spinlab.impl.pool.") && !c.startsWith("io.spinlab.impl.pool.Task");
        List<Gen<PoolWorld>> poolWorlds = List.of(
                ThreadPoolExactlyOnceProperties.worlds()
                        .map(w -> w.withMemoryModelAndQueue(true, GlobalQueuePolicy.CONCURRENT_QUEUE).withoutGate()),
                ThreadPoolExactlyOnceProperties.worlds()
                        .map(w -> w.withMemoryModelAndQueue(true, GlobalQueuePolicy.CONCURRENT_QUEUE)),
                ThreadPoolNoLostRequestProperties.windowWorlds(),
                ThreadPoolNoLostRequestProperties.cascadingWorlds());
        String[] poolNames = {"pool gate off", "pool gate on", "pool worker-exit window", "pool cascade"};
        for (int i = 0; i < poolWorlds.size(); i++) {
            Gen<PoolWorld> worlds = poolWorlds.get(i);
            checkers.add(new Checker(poolNames[i], pool, (m, tries) -> search(worlds, m, tries,
                    w -> assertPoolKeepsItsPromises(w, m), w -> assertPoolKeepsItsPromises(w, null))));
        }
        for (SpinLockPolicy policy : SpinLockPolicy.values()) {
            checkers.add(new Checker("spin lock " + policy, c -> c.startsWith("io.spinlab.impl.lock.SpinLock"),
                    (m, tries) -> search(SpinLockNoLostWaiterProperties.worlds(policy), m, tries,
                            w -> SpinLockNoLostWaiterProperties.assertTheWordStaysStraight(w, m),
                            w -> SpinLockNoLostWaiterProperties.assertTheWordStaysStraight(w, null))));
        }
        checkers.add(new Checker("spin lock exit race", c -> c.startsWith("io.spinlab.impl.lock.SpinLock"),
                (m, tries) -> search(SpinLockNoLostWaiterProperties.exitRaces(), m, tries,
                        w -> SpinLockNoLostWaiterProperties.assertExactlyOneExitRefused(w, m),
                        w -> SpinLockNoLostWaiterProperties.assertExactlyOneExitRefused(w, null))));
        Predicate<String> monitor = c -> c.startsWith("io.spinlab.impl.lock.") && !c.contains(".SpinLock")
                && !c.contains(".NativeSpinLock");
        for (MonitorPolicy policy : MonitorPolicy.values()) {
            checkers.add(new Checker("monitor " + policy, monitor,
                    (m, tries) -> search(MonitorNoLostWakeupProperties.worlds(policy), m, tries,
                            w -> MonitorNoLostWakeupProperties.assertEveryEntryCompleted(w, m),
                            w -> MonitorNoLostWakeupProperties.assertEveryEntryCompleted(w, null))));
        }
        checkers.add(new Checker("barrier", c -> c.startsWith("io.spinlab.impl.event.Barrier"),
                (m, tries) -> search(BarrierNoLostPhaseProperties.worlds(), m, tries,
                        w -> BarrierNoLostPhaseProperties.assertEveryPhaseFinishedOnce(w, m),
                        w -> BarrierNoLostPhaseProperties.assertEveryPhaseFinishedOnce(w, null))));
        checkers.add(new Checker("manual-reset event", c -> c.startsWith("io.spinlab.impl.event.ManualResetEvent"),
                (m, tries) -> search(EventNoEarlyTimeoutProperties.worlds(), m, tries,
                        w -> EventNoEarlyTimeoutProperties.assertNoEarlyTimeout(w, m),
                        w -> EventNoEarlyTimeoutProperties.assertNoEarlyTimeout(w, null))));
        checkers.add(new Checker("event buffers", c -> c.startsWith("io.spinlab.impl.buffer."),
                (m, tries) -> search(NoEventLostProperties.worlds().map(w -> w.withMemoryModel(true)), m, tries,
                        w -> assertThat(NoEventLostProperties.problems(w, NoEventLostProperties.simulate(w, m)
                                .require())).as("stream promises broken in %s", w).isEmpty(),
                        w -> assertThat(NoEventLostProperties.problems(w, NoEventLostProperties.simulate(w, null)
                                .require())).as("stream promises broken without the mutant in %s", w).isEmpty())));
        return checkers;
    }

    /** The pool's promises, judged on what the controller saw (a lost request leaves the run unfinished). */
    private static void assertPoolKeepsItsPromises(PoolWorld world, Mutation mutant) {
        io.spinlab.sim.engine.Simulation.Builder simulation = io.spinlab.sim.engine.Simulation.builder(world.machine())
                .seed(world.seed()).faults(world.faults()).memoryModel(true);
        ScenarioRunner.Run<PoolObservation> run = ScenarioRunner.simulate(ThreadPoolScenario.class, world,
                Tuning.current(), simulation, mutant);
        assertThat(run.observedSoFar()).as("an observation of %s", world).isPresent();
        assertThat(ThreadPoolExactlyOnceProperties.problems(world, run.observedSoFar().orElseThrow()))
                .as("the pool's promises broken in %s", world).isEmpty();
    }

    @Test
    void sweep() throws IOException {
        String report = System.getProperty("spinlab.pit.survivors", "");
        assumeTrue(!report.isEmpty(), "no PIT report named (-Dspinlab.pit.survivors=.../mutations.xml)");
        Path xml = Path.of(report);
        if (!xml.isAbsolute() && !Files.exists(xml)) {
            xml = Path.of("..").resolve(report); // run from the module's directory
        }
        int tries = Integer.getInteger("spinlab.pit.survivors.tries", 150);
        String only = System.getProperty("spinlab.pit.survivors.only", ".*");
        int threads = Integer.getInteger("spinlab.pit.survivors.threads", 1);
        List<Checker> checkers = checkers();
        List<PitMutants.Entry> entries = PitMutants.read(xml).stream()
                .filter(e -> !e.detected() && e.toString().matches(only))
                .filter(e -> checkers.stream().anyMatch(c -> c.covers().test(e.className())))
                .toList();
        System.out.println("PIT-SURVIVOR " + entries.size() + " undetected mutants to plant, " + tries + " worlds per search, "
                + threads + " at a time");
        List<List<String>> results = new ArrayList<>();
        entries.forEach(e -> results.add(new ArrayList<>()));
        java.util.concurrent.ExecutorService pool = java.util.concurrent.Executors.newFixedThreadPool(threads);
        try {
            List<java.util.concurrent.Future<?>> futures = new ArrayList<>();
            for (int i = 0; i < entries.size(); i++) {
                PitMutants.Entry entry = entries.get(i);
                List<String> into = results.get(i);
                futures.add(pool.submit(() -> plant(entry, checkers, tries, into)));
            }
            for (java.util.concurrent.Future<?> f : futures) {
                f.get();
            }
        } catch (InterruptedException | java.util.concurrent.ExecutionException e) {
            throw new IllegalStateException(e);
        } finally {
            pool.shutdownNow();
        }
        List<String> lines = new ArrayList<>();
        lines.add(String.join("\t", "mutant", "status", "mutation", "checker", "result", "seconds"));
        results.forEach(lines::addAll);
        Path out = Path.of("target", "pit-survivors.tsv");
        try {
            Files.createDirectories(out.getParent());
            Files.write(out, lines);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        System.out.println("PIT-SURVIVOR sweep written to " + out.toAbsolutePath());
    }

    private void plant(PitMutants.Entry entry, List<Checker> checkers, int tries, List<String> lines) {
        PitMutants.Rebuilt rebuilt = PitMutants.rebuild(entry, getClass().getClassLoader());
        if (!rebuilt.ok()) {
            record(lines, entry, "-", "-", "not rebuilt: " + rebuilt.whyNot(), 0);
            return;
        }
        for (Checker checker : checkers) {
            if (!checker.covers().test(entry.className())) {
                continue;
            }
            long start = System.nanoTime();
            String result;
            try {
                PropertyFailure failure = checker.search().search(rebuilt.mutation(), tries);
                result = failure == null ? "not caught in " + tries
                        : "CAUGHT: " + failure.getMessage().lines().findFirst().orElse("") + " BECAUSE "
                                + String.valueOf(failure.getCause()).lines().limit(3)
                                        .reduce((a, b) -> a + " / " + b).orElse("");
            } catch (AssertionError | RuntimeException e) {
                result = "the search broke: " + e.getClass()
                        .getSimpleName() + ": " + String.valueOf(e.getMessage()).lines().limit(3)
                        .reduce((a, b) -> a + " / " + b).orElse("");
                if (Boolean.getBoolean("spinlab.pit.survivors.traces")) {
                    e.printStackTrace(System.out);
                }
            }
            record(lines, entry, rebuilt.mutation().toString(), checker.name(), result,
                    (System.nanoTime() - start) / 1e9);
            if (result.startsWith("CAUGHT")) {
                return;
            }
        }
    }

    private static void record(List<String> lines, PitMutants.Entry entry, String mutation, String checker,
            String result, double seconds) {
        String secs = String.format(Locale.ROOT, "%.1f", seconds);
        System.out.println("PIT-SURVIVOR " + entry + " | " + mutation + " | " + checker + " | " + result + " | " + secs
                + " s");
        lines.add(String.join("\t", entry.toString(), entry.status(), mutation, checker,
                result.replace('\t', ' '), secs));
    }
}
