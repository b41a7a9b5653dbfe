package io.spinlab.reports.cli;

import io.spinlab.reports.bench.BenchPair;
import io.spinlab.reports.bench.BenchRunner;
import io.spinlab.reports.bench.BenchTable;
import org.openjdk.jmh.runner.options.VerboseMode;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

import java.io.PrintStream;
import java.io.PrintWriter;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.Callable;

/** {@code spinlab bench}: the JMH benchmarks of the primitives against their JVM peers, as ratios. */
@Command(name = "bench", mixinStandardHelpOptions = true,
        description = {"Run the JMH benchmarks of the primitives beside their JDK peers in one run and print each pair "
                + "with the ratio spinlab / peer (throughput, higher is better), its 99 %% confidence interval, "
                + "a verdict (faster, slower, or inconclusive when the interval spans 1), and each side's "
                + "process CPU time per op, cores busy and, for locks, the fairness of per-thread acquisitions.",
                "JMH progress goes to standard error, the table (Markdown) to standard output."})
final class BenchCommand implements Callable<Integer> {

    @Parameters(arity = "0..1", paramLabel = "REGEX",
            description = "Benchmarks to run, matched anywhere in package.Class.method (default: all).")
    private String filter;

    @Option(names = "--filter", paramLabel = "REGEX", description = "Same as the REGEX parameter.")
    private String filterOption;

    @Option(names = "--warmup-iterations", defaultValue = "2",
            description = "Warm-up iterations (default ${DEFAULT-VALUE}).")
    private int warmupIterations;

    @Option(names = "--iterations", defaultValue = "4",
            description = "Measurement iterations (default ${DEFAULT-VALUE}).")
    private int iterations;

    @Option(names = "--time", defaultValue = "1", paramLabel = "SECONDS",
            description = "Duration of each iteration in seconds (default ${DEFAULT-VALUE}).")
    private double seconds;

    @Option(names = "--forks", defaultValue = "3",
            description = "JVM forks per benchmark (default ${DEFAULT-VALUE}; with fewer, the interval misses the "
                    + "fork-to-fork spread).")
    private int forks;

    @Option(names = "--quiet", description = "No JMH progress on standard error.")
    private boolean quiet;

    @Option(names = "--list", description = "Print the selected benchmarks and exit.")
    private boolean list;

    @Spec
    private CommandSpec spec;

    @Override
    public Integer call() throws Exception {
        PrintWriter out = spec.commandLine().getOut();
        String regex = selectedFilter();
        List<String> selected;
        try {
            selected = BenchRunner.benchmarks(regex);
        } catch (java.util.regex.PatternSyntaxException e) {
            throw new IllegalArgumentException("benchmark filter '" + regex + "' is not a regular expression: "
                    + e.getDescription(), e);
        }
        if (selected.isEmpty()) {
            throw new IllegalArgumentException("no benchmark matches '" + regex + "'; list them with bench --list");
        }
        if (list) {
            selected.forEach(out::println);
            out.flush();
            return 0;
        }
        if (!(seconds >= 0.001 && seconds <= MAX_SECONDS)) {
            throw new IllegalArgumentException("--time " + seconds + " is out of range; allowed 0.001.." + MAX_SECONDS
                    + " seconds (JMH times iterations in whole milliseconds)");
        }
        checkRange("--warmup-iterations", warmupIterations, 0, MAX_ITERATIONS);
        checkRange("--iterations", iterations, 1, MAX_ITERATIONS);
        checkRange("--forks", forks, 1, MAX_FORKS);
        Duration time = Duration.ofMillis(Math.round(seconds * 1000));
        BenchRunner.Settings settings = new BenchRunner.Settings(warmupIterations, time, iterations, time, forks);
        List<BenchPair> pairs = BenchRunner.run(regex, settings, new PrintStream(System.err, true),
                quiet ? VerboseMode.SILENT : VerboseMode.NORMAL);
        out.print(BenchTable.format(pairs));
        out.flush();
        return 0;
    }

    /** Longest iteration: a minute already makes a full run take days. */
    static final double MAX_SECONDS = 60;
    static final int MAX_ITERATIONS = 100;
    static final int MAX_FORKS = 20;

    private static void checkRange(String option, int value, int min, int max) {
        if (value < min || value > max) {
            throw new IllegalArgumentException(option + " " + value + " is out of range; allowed " + min + ".." + max);
        }
    }

    String selectedFilter() {
        if (filter != null && filterOption != null && !filter.equals(filterOption)) {
            throw new IllegalArgumentException("give the benchmark filter once: REGEX '" + filter + "' and --filter '"
                    + filterOption + "' differ");
        }
        String chosen = filter != null ? filter : filterOption;
        return chosen == null ? BenchRunner.ALL : chosen;
    }
}
