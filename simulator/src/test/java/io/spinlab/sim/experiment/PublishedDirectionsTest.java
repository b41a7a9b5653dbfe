package io.spinlab.sim.experiment;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.Locale;
import java.util.Set;
import java.util.function.Predicate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

/**
 * The verdict of every row of a reduced {@code reproduce} against a golden table
 * ({@code src/test/resources/published-verdicts.txt}), so that any change in what the simulator
 * concludes about a published result shows as a diff, agreements and disagreements alike
 * ({@code simulator/EXPERIMENTS.md} explains the disagreements).
 *
 * <p>The reduction is {@code reproduce --quick}'s (the first two rows of every experiment) plus
 * the rows that carry the published directions named below, each with the same windows and seeds
 * as in a full {@code reproduce}; and the global-queue experiment's serial row once more in fast
 * mode, where it must score exactly alike. One line per row: experiment, machine, workload, parameters, verdict.
 *
 * <p>After an intended change, regenerate the table and review its diff:
 * <pre>
 * ./mvnw -B -pl simulator -am test -Dtest=PublishedDirectionsTest -Dsurefire.failIfNoSpecifiedTests=false \
 *     -Dspinlab.golden.update=true
 * </pre>
 */
@Timeout(value = 10, unit = TimeUnit.MINUTES) // long on purpose: above the module's 60 s default
class PublishedDirectionsTest {

    /** Set to {@code true} to rewrite the golden table instead of comparing with it (as the reports' goldens). */
    static final String UPDATE_PROPERTY = "spinlab.golden.update";

    private static final Path GOLDEN = Path.of("src", "test", "resources", "published-verdicts.txt");

    private static final String HEADER = """
            # The verdict of every row of PublishedDirectionsTest's reduced reproduce.
            # experiment | machine | workload | parameters | verdict
            # Regenerate on purpose only: -Dspinlab.golden.update=true, then review the diff.
            """;

    private static Predicate<PlannedRow> row(String machine, String workload, String parametersPrefix) {
        return r -> r.machine().name().equals(machine) && r.workload().name().equals(workload)
                && r.workload().parameters().startsWith(parametersPrefix);
    }

    private static Predicate<PlannedRow> parameters(String prefix) {
        return r -> r.workload().parameters().startsWith(prefix);
    }

    /** Rows beyond --quick's: where the publications' directions are. */
    private static Predicate<PlannedRow> directions(String experiment) {
        return switch (experiment) {
            // coreclr #13556: processor-scaled spin crawls on Skylake at 1 x processors and more.
            case "mres-proc-scaling" -> row("skylake-i7-6700", "mres-wait-drain-rate", "threads=1pc,delay=0")
                    .or(row("skylake-i7-6700", "mres-wait-drain-rate", "threads=16pc,delay=0"))
                    .or(row("skylake-i7-6700", "mres-wait-latency", "threads=1pc,delay=0"));
            // coreclr #13670: normalization helps Kaby Lake's drain rates, is neutral on Haswell's handoffs.
            case "normalized-spin" -> row("kabylake-e3-1245v6", "mres-wait-drain-rate", "threads=1pc")
                    .or(row("kabylake-e3-1245v6", "mres-wait-drain-rate", "threads=2pc"))
                    .or(row("kabylake-e3-1245v6", "semaphore-wait-drain-rate", "threads=1pc"))
                    .or(row("haswell-i5-4670k", "semaphore-latency", "threads=1pc"))
                    .or(row("haswell-i5-4670k", "spinlock-latency", "threads=1pc"));
            // coreclr #13978/#14216: barging beats the convoy handoff once waiters block.
            case "monitor-convoy" -> parameters("threads=1pc,hold=1us").or(parameters("threads=16pc,hold=0"));
            // coreclr #9234: the suite's QUWI with a serial driver on a thread of its own (a pinned
            // disagreement) and 16 such drivers, and the description's batch benchmark with one and
            // with ProcessorCount queueing threads.
            case "threadpool-global-queue" -> parameters("drivers=serial,depth=1,from=threads")
                    .or(parameters("drivers=16,depth=1,from=threads"))
                    .or(row("skylake-i7-6700", "pool-batch", "threads="));
            default -> r -> false;
        };
    }

    /** reproduce --quick's rows of {@code experiment} and its direction rows, in plan order. */
    static Experiment reduced(Experiment experiment) {
        List<PlannedRow> quick = experiment.rows().subList(0, Math.min(2, experiment.rows().size()));
        return experiment.select(directions(experiment.name()).or(quick::contains));
    }

    static String line(ExperimentRow r) {
        String experiment = r.experiment() + (r.memoryModel() ? "" : " (fast mode)");
        return String.join(" | ", experiment, r.machine(), r.workload(), r.parameters(),
                r.verdict().name().toLowerCase(Locale.ROOT));
    }

    @Test
    void shouldReachTheGoldenVerdictOnEveryRowWhenAReducedReproduceRuns() throws IOException {
        List<Experiment> plan = new ArrayList<>();
        for (String name : Experiments.names()) {
            plan.add(reduced(Experiments.byName(name)));
        }
        plan.add(Experiments.byName("threadpool-global-queue").withMemoryModel(false)
                .select(parameters("drivers=serial,depth=16,from=threads")));
        List<ExperimentRow> rows = new ArrayList<>();
        for (Experiment experiment : plan) {
            rows.addAll(experiment.run(ProgressListener.NONE, 2));
        }
        assertThat(rows).allSatisfy(r -> assertThat(r.failure()).as(r.toString()).isEmpty());
        // Why fast mode never gives a verdict, exactly: there the two global queues differ only in
        // Java code between Platform calls, which costs no virtual time, so they score alike.
        assertThat(rows).filteredOn(r -> !r.memoryModel()
                        && r.parameters().startsWith("drivers=serial,depth=16,from=threads"))
                .singleElement().satisfies(r -> assertThat(r.deltaPercent()).as(r.toString()).isZero());
        StringBuilder actual = new StringBuilder(HEADER);
        rows.forEach(r -> actual.append(line(r)).append('\n'));

        if (Boolean.getBoolean(UPDATE_PROPERTY)) {
            Files.writeString(GOLDEN, actual, StandardCharsets.UTF_8);
        }
        assertThat(GOLDEN).as("golden table %s is missing; create it with -D%s=true", GOLDEN, UPDATE_PROPERTY)
                .exists();
        List<String> expected = Files.readAllLines(GOLDEN, StandardCharsets.UTF_8);
        List<String> got = actual.toString().lines().toList();
        List<String> diff = diff(expected, got);
        if (!diff.isEmpty()) {
            fail("%d verdict line(s) differ from %s (- golden, + this run); if intended, regenerate with -D%s=true "
                    + "and review the diff:%n%s", diff.size(), GOLDEN.toAbsolutePath(), UPDATE_PROPERTY,
                    String.join("\n", diff));
        }
    }

    /** The lines only one side has, "- " for the golden's, "+ " for this run's, each side in its order. */
    static List<String> diff(List<String> expected, List<String> actual) {
        List<String> lines = new ArrayList<>();
        Set<String> have = new LinkedHashSet<>(actual);
        Set<String> want = new LinkedHashSet<>(expected);
        expected.stream().filter(l -> !have.contains(l)).forEach(l -> lines.add("- " + l));
        actual.stream().filter(l -> !want.contains(l)).forEach(l -> lines.add("+ " + l));
        if (lines.isEmpty() && !expected.equals(actual)) {
            lines.add("(same lines, different order or repeats)");
        }
        return lines;
    }

    @Test
    void shouldShowOnlyTheLinesThatChangedWhenDiffing() {
        List<String> diff = diff(List.of("a | agrees", "b | agrees", "c | no_claim"),
                List.of("a | agrees", "b | disagrees", "c | no_claim"));

        assertThat(diff).containsExactly("- b | agrees", "+ b | disagrees");
    }
}
