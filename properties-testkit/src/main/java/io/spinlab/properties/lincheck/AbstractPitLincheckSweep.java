package io.spinlab.properties.lincheck;

import io.spinlab.properties.mutation.Mutants;
import io.spinlab.properties.mutation.Mutation;
import io.spinlab.properties.mutation.PitMutants;
import org.jetbrains.lincheck.datastructures.Options;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import java.util.function.Supplier;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * PIT's undetected mutants, planted one by one in the Lincheck suites' model-checking
 * configurations: a tool for impl/MUTATION.md, not part of the build. PIT runs impl's tests only; a
 * race-only mutant (one that only an interleaving inside the primitive shows) survives them, and
 * Lincheck's model checker, which switches threads at every shared-memory access, is the checker made
 * for such interleavings. Each undetected mutant of a PIT report is rebuilt on the real class
 * ({@link PitMutants}) and checked, as {@link Planted} does, under every configuration whose operations
 * reach its class, until one reports a linearizability violation or a hang. A catch counts only where
 * the same configuration, with the same budget, passes the real class (run once per configuration).
 *
 * <p>Each module of Lincheck suites has its {@code PitLincheckSweep}, which names the configurations of
 * its suites:
 *
 * <pre>
 * ./mvnw -B -pl lincheck-collections,lincheck-synchronization test-compile surefire:test@default-test \
 *     -Dsurefire.failIfNoSpecifiedTests=false \
 *     -Dtest=PitLincheckSweep -Dspinlab.pit.survivors=impl/target/pit-reports/mutations.xml \
 *     [-Dspinlab.pit.survivors.only=REGEX] [-Dspinlab.pit.survivors.traces=true]
 * </pre>
 *
 * It prints one {@code PIT-LINCHECK} line per mutant and configuration and writes them, tab-separated,
 * to {@code target/pit-lincheck.tsv} of the module (with {@code traces}, also Lincheck's account of each
 * failing execution). Skipped when no report is named.
 */
@Timeout(value = 10, unit = TimeUnit.HOURS)
public abstract class AbstractPitLincheckSweep {

    /** A model-checking configuration of a suite: the operations class and fresh options for it. */
    protected record Configuration(String name, Predicate<String> covers, Class<?> operations,
                                   Supplier<Options<?, ?>> options) {
    }

    /** True for class names that start with one of {@code prefixes}. */
    protected static Predicate<String> startsWith(String... prefixes) {
        return c -> {
            for (String prefix : prefixes) {
                if (c.startsWith(prefix)) {
                    return true;
                }
            }
            return false;
        };
    }

    /** The model-checking configurations of this module's suites, in the order they are tried. */
    protected abstract List<Configuration> configurations();

    @Test
    void sweep() throws IOException {
        String report = System.getProperty("spinlab.pit.survivors", "");
        assumeTrue(!report.isEmpty(), "no PIT report named (-Dspinlab.pit.survivors=.../mutations.xml)");
        Path xml = Path.of(report);
        if (!xml.isAbsolute() && !Files.exists(xml)) {
            xml = Path.of("..").resolve(report); // run from the module's directory
        }
        String only = System.getProperty("spinlab.pit.survivors.only", ".*");
        List<Configuration> configurations = configurations();
        List<PitMutants.Entry> entries = PitMutants.read(xml).stream()
                .filter(e -> !e.detected() && e.toString().matches(only))
                .filter(e -> configurations.stream().anyMatch(c -> c.covers().test(e.className())))
                .toList();
        System.out.println("PIT-LINCHECK " + entries.size() + " undetected mutants to plant");
        List<String> lines = new ArrayList<>();
        lines.add(String.join("\t", "mutant", "status", "mutation", "configuration", "result", "seconds"));
        Path out = Path.of("target", "pit-lincheck.tsv");
        Files.createDirectories(out.getParent());
        for (PitMutants.Entry entry : entries) {
            plant(entry, configurations, lines);
            Files.write(out, lines); // after each mutant: a sweep cut short keeps what it found
        }
        System.out.println("PIT-LINCHECK sweep written to " + out.toAbsolutePath());
    }

    private void plant(PitMutants.Entry entry, List<Configuration> configurations, List<String> lines) {
        PitMutants.Rebuilt rebuilt = PitMutants.rebuild(entry, getClass().getClassLoader());
        if (!rebuilt.ok()) {
            record(lines, entry, "-", "-", "not rebuilt: " + rebuilt.whyNot(), 0);
            return;
        }
        Mutation mutation = rebuilt.mutation();
        for (Configuration configuration : configurations) {
            if (!configuration.covers().test(entry.className())) {
                continue;
            }
            long start = System.nanoTime();
            String result = check(configuration, mutation);
            if (result.startsWith("CAUGHT") && !control(configuration).isEmpty()) {
                result = "not told apart: " + control(configuration);
            }
            record(lines, entry, mutation.toString(), configuration.name(), result, (System.nanoTime() - start) / 1e9);
            if (result.startsWith("CAUGHT")) {
                return;
            }
        }
    }

    /** What the configuration made of the mutant: CAUGHT with Lincheck's first line, or why not. */
    private static String check(Configuration configuration, Mutation mutation) {
        Class<?> mutant;
        try {
            mutant = Mutants.load(configuration.operations(), mutation);
        } catch (IllegalStateException notReached) {
            return "not reached: " + notReached.getMessage();
        }
        Options<?, ?> options = configuration.options().get();
        options.minimizeFailedScenario(false);
        try {
            options.check(mutant);
        } catch (AssertionError failure) {
            String message = String.valueOf(failure.getMessage());
            if (Boolean.getBoolean("spinlab.pit.survivors.traces")) {
                System.out.println("PIT-LINCHECK trace of " + mutation + ":\n" + message);
            }
            String first = message.lines().filter(l -> !l.isBlank()).findFirst().orElse("");
            if (message.contains("Invalid execution results") || message.contains("hung")) {
                return "CAUGHT: " + first;
            }
            return "failed otherwise: " + first;
        } catch (RuntimeException broke) {
            return "the check broke: " + broke.getClass().getSimpleName() + ": "
                    + String.valueOf(broke.getMessage()).lines().findFirst().orElse("");
        }
        return "not caught";
    }

    /** Each configuration's run against the real class, once: a catch counts only where it passes. */
    private final java.util.Map<String, String> controls = new java.util.HashMap<>();

    private String control(Configuration configuration) {
        return controls.computeIfAbsent(configuration.name(), name -> {
            Options<?, ?> options = configuration.options().get();
            options.minimizeFailedScenario(false);
            try {
                options.check(configuration.operations());
                return "";
            } catch (AssertionError | RuntimeException failure) {
                return "the real class fails it too: "
                        + String.valueOf(failure.getMessage()).lines().filter(l -> !l.isBlank()).findFirst().orElse("");
            }
        });
    }

    private static void record(List<String> lines, PitMutants.Entry entry, String mutation, String configuration,
            String result, double seconds) {
        String secs = String.format(Locale.ROOT, "%.1f", seconds);
        System.out.println("PIT-LINCHECK " + entry + " | " + mutation + " | " + configuration + " | " + result
                + " | " + secs + " s");
        lines.add(String.join("\t", entry.toString(), entry.status(), mutation, configuration,
                result.replace('\t', ' '), secs));
    }
}
