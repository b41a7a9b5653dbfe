package io.spinlab.reports.bench;

import org.openjdk.jmh.infra.BenchmarkParams;
import org.openjdk.jmh.results.Result;
import org.openjdk.jmh.results.RunResult;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * One benchmark's primary score, reduced from a JMH {@link RunResult} to what the pairing and the
 * table need. Built from synthetic values in tests.
 *
 * @param benchmark the JMH benchmark name, {@code package.Class.method} (or the group name)
 * @param params the {@code @Param} values, {@code key=value} sorted by key and joined by
 *               {@code ", "}; empty when the benchmark has none
 * @param score the primary score (ops/µs for throughput)
 * @param error the half-width of JMH's 99.9 % confidence interval; NaN when JMH could not compute
 *              one (a single measurement iteration)
 * @param unit the score's unit as JMH prints it, e.g. {@code ops/us}
 */
public record BenchScore(String benchmark, String params, double score, double error, String unit) {

    public BenchScore {
        Objects.requireNonNull(benchmark, "benchmark");
        Objects.requireNonNull(params, "params");
        Objects.requireNonNull(unit, "unit");
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
        return new BenchScore(benchmarkParams.getBenchmark(), String.join(", ", params), primary.getScore(),
                primary.getScoreError(), primary.getScoreUnit());
    }

    /** This benchmark's name parsed by the pairing convention. */
    public BenchName name() {
        return BenchName.parse(benchmark);
    }
}
