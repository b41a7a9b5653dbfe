package io.spinlab.reports.bench;

import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Table formatting and the command line's parsing, on synthetic scores: nothing here is timed. */
class BenchTableTest {

    private static final String PKG = "io.spinlab.reports.bench.";

    @Test
    void shouldFormatAlignedMarkdownWithScoresIntervalVerdictAndCostsWhenBothSidesRan() {
        // Short synthetic names keep the expected text narrow; the convention only needs three parts.
        List<BenchPair> pairs = BenchPair.pairAll(List.of(
                new BenchScore(PKG + "Lock.peer_rl_c", "", 20.0, 1.5, "ops/us", 4, 2.0, 50.0, 1.25, 0.5),
                new BenchScore(PKG + "Lock.spinlab_mon_c", "", 30.0, 3.0, "ops/us", 4, 3.0, 66.7, 2.0, 0.98),
                new BenchScore(PKG + "Seam.peer_wait_spin", "n=16", 2.5, Double.NaN, "ops/us"),
                new BenchScore(PKG + "Seam.spinlab_pp_spin", "n=16", 2.45, Double.NaN, "ops/us")));

        String table = BenchTable.format(pairs);

        assertThat(table).isEqualTo("""
                | benchmark        | spinlab |  spinlab score | peer |     peer score | spinlab/peer | 99 % CI      \
                | verdict      | CPU ns/op s / p | cores s / p | fairness s / p | unit   |
                |------------------|---------|---------------:|------|---------------:|-------------:|--------------\
                |--------------|----------------:|------------:|---------------:|--------|
                | Lock.c           | mon     | 30.000 ± 3.000 | rl   | 20.000 ± 1.500 |        1.500 | 1.154..1.950 \
                | faster       |     66.7 / 50.0 | 2.00 / 1.25 |    0.98 / 0.50 | ops/us |
                | Seam.spin [n=16] | pp      |          2.450 | wait |          2.500 |        0.980 | —            \
                | inconclusive |               — |           — |              — | ops/us |
                """);
    }

    @Test
    void shouldShowADashForTheSideAFilterLeftOut() {
        List<BenchPair> pairs = BenchPair.pairAll(List.of(
                new BenchScore(PKG + "LockBenchmark.peer_reentrantLock_contended", "", 20.0, 1.5, "ops/us", 4, 2.0,
                        50.0, 1.0, Double.NaN)));

        List<String> row = BenchTable.row(pairs.getFirst());

        assertThat(row).containsExactly("LockBenchmark.contended", BenchTable.MISSING, BenchTable.MISSING,
                "reentrantLock", "20.000 ± 1.500", BenchTable.MISSING, BenchTable.MISSING, BenchTable.MISSING,
                "— / 50.0", "— / 1.00", BenchTable.MISSING, "ops/us");
    }

    @Test
    void shouldWriteOnlyTheHeaderWhenThereAreNoPairs() {
        assertThat(BenchTable.format(List.of()).lines().toList()).hasSize(2);
    }
}
