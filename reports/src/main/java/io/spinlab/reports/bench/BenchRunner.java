package io.spinlab.reports.bench;

import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.runner.BenchmarkList;
import org.openjdk.jmh.runner.BenchmarkListEntry;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.RunnerException;
import org.openjdk.jmh.runner.format.OutputFormat;
import org.openjdk.jmh.runner.format.OutputFormatFactory;
import org.openjdk.jmh.runner.options.Options;
import org.openjdk.jmh.runner.options.OptionsBuilder;
import org.openjdk.jmh.runner.options.TimeValue;
import org.openjdk.jmh.runner.options.VerboseMode;

import java.io.OutputStream;
import java.io.PrintStream;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;

/**
 * Runs the spinlab-versus-JDK benchmarks of this package through JMH's {@link Runner} and prints
 * each spinlab benchmark beside its peer with the ratio (spinlab / peer, higher is better). Pairs
 * are found by the {@link BenchName} naming convention ({@code spinlab_subject_scenario} against
 * {@code peer_subject_scenario} in the same class).
 *
 * <p>The command line is {@code spinlab bench} ({@code io.spinlab.reports.cli.BenchCommand}).
 *
 * <p>JMH finds the benchmarks through {@code META-INF/BenchmarkList}, which the annotation
 * processor writes into this module's classes; forks start with the caller's class path, so run
 * it from a class path holding this module's classes or jar and its dependencies.
 */
public final class BenchRunner {

    /** The default filter: every benchmark of this package. */
    public static final String ALL = "^" + Pattern.quote(BenchRunner.class.getPackageName() + ".");
    /** A stuck iteration is interrupted after this long (the benchmarks' own waits are timed). */
    static final TimeValue ITERATION_TIMEOUT = TimeValue.seconds(60);

    private BenchRunner() {
    }

    /**
     * How long JMH measures: warm-up and measurement iterations and their durations, forks.
     * Throughput in ops/µs is fixed, so that every pair compares like with like.
     */
    public record Settings(int warmupIterations, Duration warmupTime, int measurementIterations,
                           Duration measurementTime, int forks) {

        public Settings {
            Objects.requireNonNull(warmupTime, "warmupTime");
            Objects.requireNonNull(measurementTime, "measurementTime");
            if (warmupIterations < 0) {
                throw new IllegalArgumentException("warmupIterations = " + warmupIterations + "; allowed 0 or more");
            }
            if (measurementIterations < 1) {
                throw new IllegalArgumentException("measurementIterations = " + measurementIterations
                        + "; allowed 1 or more");
            }
            if (forks < 1) {
                throw new IllegalArgumentException("forks = " + forks + "; allowed 1 or more (each benchmark gets a "
                        + "fresh JVM, so that one benchmark's profile does not shape another's code)");
            }
            if (!warmupTime.isPositive() || !measurementTime.isPositive()) {
                throw new IllegalArgumentException("iteration times must be positive: warm-up " + warmupTime
                        + ", measurement " + measurementTime);
            }
        }

        /**
         * The defaults of {@code spinlab bench}: 2 warm-up × 1 s and 4 measurement × 1 s in each of
         * 3 forks (about 20 s a benchmark), so that a ratio's interval holds fork-to-fork spread
         * (JIT decisions, placement) and not only one JVM's iterations.
         */
        public static Settings standard() {
            return new Settings(2, Duration.ofSeconds(1), 4, Duration.ofSeconds(1), 3);
        }

        /** Short settings for a look, not a result: 2 warm-up × 1 s, 3 measurement × 1 s, 1 fork. */
        public static Settings quick() {
            return new Settings(2, Duration.ofSeconds(1), 3, Duration.ofSeconds(1), 1);
        }
    }

    /**
     * JMH options for {@code filter} (a regex on benchmark names) and {@code settings}, with
     * {@link CostProfiler} attached (it only reads counters between iterations, no thread of its own).
     */
    public static Options options(String filter, Settings settings, VerboseMode verbosity) {
        return new OptionsBuilder()
                .include(filter)
                .mode(Mode.Throughput)
                .timeUnit(TimeUnit.MICROSECONDS)
                .warmupIterations(settings.warmupIterations())
                .warmupTime(TimeValue.milliseconds(settings.warmupTime().toMillis()))
                .measurementIterations(settings.measurementIterations())
                .measurementTime(TimeValue.milliseconds(settings.measurementTime().toMillis()))
                .forks(settings.forks())
                .addProfiler(CostProfiler.class)
                .timeout(ITERATION_TIMEOUT)
                .shouldFailOnError(true)
                .verbosity(verbosity)
                .build();
    }

    /**
     * Runs the benchmarks matching {@code filter} and pairs their scores.
     *
     * @param progress where JMH writes its progress (e.g. {@code System.err})
     * @throws RunnerException if JMH fails, or a benchmark throws
     */
    public static List<BenchPair> run(String filter, Settings settings, PrintStream progress, VerboseMode verbosity)
            throws RunnerException {
        OutputFormat format = OutputFormatFactory.createFormatInstance(progress, verbosity);
        Collection<RunResult> results = new Runner(options(filter, settings, verbosity), format).run();
        return BenchPair.pairAll(scores(results));
    }

    /** The primary scores of JMH results, sorted by benchmark name and parameters. */
    public static List<BenchScore> scores(Collection<RunResult> results) {
        List<BenchScore> scores = new ArrayList<>();
        for (RunResult result : results) {
            scores.add(BenchScore.of(result));
        }
        scores.sort(Comparator.comparing(BenchScore::benchmark).thenComparing(BenchScore::params));
        return scores;
    }

    /** The names of the benchmarks {@code filter} selects, from JMH's benchmark list, sorted. */
    public static List<String> benchmarks(String filter) {
        OutputFormat silent = OutputFormatFactory.createFormatInstance(new PrintStream(OutputStream.nullOutputStream()),
                VerboseMode.SILENT);
        List<String> names = new ArrayList<>();
        for (BenchmarkListEntry entry : BenchmarkList.defaultList().find(silent, List.of(filter), List.of())) {
            if (!names.contains(entry.getUsername())) {
                names.add(entry.getUsername());
            }
        }
        names.sort(null);
        return names;
    }
}
