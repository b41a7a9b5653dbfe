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
    void shouldFormatAlignedMarkdownWithScoresErrorsAndRatioWhenBothSidesRan() {
        // Short synthetic names keep the expected text narrow; the convention only needs three parts.
        List<BenchPair> pairs = BenchPair.pairAll(List.of(
                new BenchScore(PKG + "Lock.peer_rl_c", "", 20.0, 1.5, "ops/us"),
                new BenchScore(PKG + "Lock.spinlab_mon_c", "", 30.0, 3.0, "ops/us"),
                new BenchScore(PKG + "Seam.peer_wait_spin", "n=16", 2.5, Double.NaN, "ops/us"),
                new BenchScore(PKG + "Seam.spinlab_pp_spin", "n=16", 2.45, Double.NaN, "ops/us")));

        String table = BenchTable.format(pairs);

        assertThat(table).isEqualTo("""
                | benchmark        | spinlab |  spinlab score | peer |     peer score |  spinlab/peer | unit   |
                |------------------|---------|---------------:|------|---------------:|--------------:|--------|
                | Lock.c           | mon     | 30.000 ± 3.000 | rl   | 20.000 ± 1.500 | 1.500 ± 0.188 | ops/us |
                | Seam.spin [n=16] | pp      |          2.450 | wait |          2.500 |         0.980 | ops/us |
                """);
    }

    @Test
    void shouldShowADashForTheSideAFilterLeftOut() {
        List<BenchPair> pairs = BenchPair.pairAll(List.of(
                new BenchScore(PKG + "LockBenchmark.peer_reentrantLock_contended", "", 20.0, 1.5, "ops/us")));

        List<String> row = BenchTable.row(pairs.getFirst());

        assertThat(row).containsExactly("LockBenchmark.contended", BenchTable.MISSING, BenchTable.MISSING,
                "reentrantLock", "20.000 ± 1.500", BenchTable.MISSING, "ops/us");
    }

    @Test
    void shouldWriteOnlyTheHeaderWhenThereAreNoPairs() {
        assertThat(BenchTable.format(List.of()).lines().toList()).hasSize(2);
    }

    @Test
    void shouldUseQuickSettingsWhenNoOptionIsGiven() {
        BenchRunner.Command command = BenchRunner.Command.parse();

        assertThat(command.settings()).isEqualTo(BenchRunner.Settings.quick());
        assertThat(command.settings()).isEqualTo(new BenchRunner.Settings(2, Duration.ofSeconds(1), 3,
                Duration.ofSeconds(1), 1));
        assertThat(command.filter()).isEqualTo(BenchRunner.ALL);
    }

    @Test
    void shouldParseOptionsAndFilterWhenGiven() {
        BenchRunner.Command command = BenchRunner.Command.parse("--iterations", "5", "--time", "0.5", "--forks", "2",
                "--warmup-iterations", "1", "--quiet", "Lock");

        assertThat(command.settings()).isEqualTo(new BenchRunner.Settings(1, Duration.ofMillis(500), 5,
                Duration.ofMillis(500), 2));
        assertThat(command.filter()).isEqualTo("Lock");
    }

    @Test
    void shouldExitWithUsageWhenAnOptionIsUnknown() throws Exception {
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int exitCode = BenchRunner.run(new String[] {"--threads", "4"}, new PrintStream(new ByteArrayOutputStream()),
                new PrintStream(err, true, StandardCharsets.UTF_8));

        assertThat(exitCode).isEqualTo(2);
        assertThat(err.toString(StandardCharsets.UTF_8)).contains("unknown option --threads").contains("usage:");
        assertThatThrownBy(() -> BenchRunner.Command.parse("--forks", "0"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("forks = 0");
    }
}
