package io.spinlab.reports.bench;

import org.openjdk.jmh.infra.BenchmarkParams;
import org.openjdk.jmh.results.Result;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.util.Statistics;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * One benchmark's primary score and what {@link CostProfiler} measured beside it, reduced from a
 * JMH {@link RunResult} to what the pairing and the table need. Built from synthetic values in
 * tests.
 *
 * @param benchmark the JMH benchmark name, {@code package.Class.method} (or the group name)
 * @param params the {@code @Param} values, {@code key=value} sorted by key and joined by
 *               {@code ", "}; empty when the benchmark has none
 * @param score the primary score (ops/µs for throughput): the mean over every measurement
 *              iteration of every fork
 * @param error the half-width of JMH's 99.9 % confidence interval; NaN when JMH could not compute
 *              one (a single measurement iteration)
 * @param unit the score's unit as JMH prints it, e.g. {@code ops/us}
 * @param samples the number of measurement iterations behind {@code score}, all forks together
 * @param stdDev the standard deviation of those iterations' scores; NaN with fewer than two
 * @param cpuNanosPerOp process CPU time per operation (all threads of the fork, over the
 *                      iteration), ns; NaN when not measured
 * @param cpuCores process CPU time over wall time during the iteration: how many cores were busy;
 *                 NaN when not measured
 * @param fairness the fewest over the most per-thread acquisitions in an iteration (1 = every
 *                 thread got as many, 0 = one thread starved), averaged; NaN where the benchmark
 *                 does not count acquisitions
 */
public record BenchScore(String benchmark, String params, double score, double error, String unit, long samples,
                         double stdDev, double cpuNanosPerOp, double cpuCores, double fairness) {

    public BenchScore {
        Objects.requireNonNull(benchmark, "benchmark");
        Objects.requireNonNull(params, "params");
        Objects.requireNonNull(unit, "unit");
        if (samples < 0) {
            throw new IllegalArgumentException("samples = " + samples + "; allowed 0 or more");
        }
    }

    /** A score without sample statistics or costs (one that cannot be tested for a difference). */
    public BenchScore(String benchmark, String params, double score, double error, String unit) {
        this(benchmark, params, score, error, unit, 0, Double.NaN, Double.NaN, Double.NaN, Double.NaN);
    }

    /** The primary result of one JMH run of one benchmark (and one parameter combination). */
    public static BenchScore of(RunResult result) {
        BenchmarkParams benchmarkParams = result.getParams();
        List<String> keys = new ArrayList<>();
        for (Object key : benchmarkParams.getParamsKeys()) {
            keys.add((String) key);
        }
        keys.sort(null);
        List<String> params = new ArrayList<>();
        for (String key : keys) {
            params.add(key + "=" + benchmarkParams.getParam(key));
        }
        Result<?> primary = result.getPrimaryResult();
        Statistics statistics = primary.getStatistics();
        return new BenchScore(benchmarkParams.getBenchmark(), String.join(", ", params), primary.getScore(),
                primary.getScoreError(), primary.getScoreUnit(), statistics.getN(),
                statistics.getN() > 1 ? statistics.getStandardDeviation() : Double.NaN,
                secondaryScore(result, CostProfiler.CPU_NANOS_PER_OP),
                secondaryScore(result, CostProfiler.CPU_CORES),
                secondaryScore(result, CostProfiler.FAIRNESS));
    }

    private static double secondaryScore(RunResult run, String label) {
        Result<?> result = run.getSecondaryResults().get(label);
        return result == null ? Double.NaN : result.getScore();
    }

    /** The standard error of {@code score}: {@code stdDev / sqrt(samples)}; NaN with fewer than two samples. */
    public double standardError() {
        return samples < 2 ? Double.NaN : stdDev / Math.sqrt(samples);
    }

    /** This benchmark's name parsed by the pairing convention. */
    public BenchName name() {
        return BenchName.parse(benchmark);
    }
}
