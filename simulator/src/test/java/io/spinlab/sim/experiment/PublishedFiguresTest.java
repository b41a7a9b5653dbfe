package io.spinlab.sim.experiment;

import io.spinlab.sim.workload.Workloads;
import org.junit.jupiter.api.Test;

import java.util.HashSet;
import java.util.List;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

class PublishedFiguresTest {

    private static final String SOURCE = """
            {"id": "s", "experiment": "e", "spinlabMachine": "m", "repository": "dotnet/coreclr",
             "pullRequest": 1, "postedIn": "dotnet/coreclr#2", "url": "https://example.org/2", "author": "a",
             "date": "2017-08-25", "machine": "M", "note": "read in part"}""";

    @Test
    void shouldGiveTheFirstMatchingFigureWithItsScoresAndCitationWhenARowMatches() {
        PublishedFigures figures = PublishedFigures.parse("""
                {"sources": [%s],
                 "figures": [
                   {"source": "s", "scenario": "A 1Pc", "workload": "mres-wait-drain-rate",
                    "where": {"threads": "1pc", "delay": "0"}, "left": 40, "right": 50},
                   {"source": "s", "scenario": "A any", "workload": "mres-wait-drain-rate", "deltaPercent": -20}],
                 "claims": [{"source": "s", "direction": "neutral", "text": "close"}],
                 "totals": [{"source": "s", "deltaPercent": 12.5, "text": "total +12.5 %%"}]}
                """.formatted(SOURCE));

        Published first = figures.claim("e", "m", Workloads.create("mres-wait-drain-rate", "threads=1pc,delay=0"));
        assertThat(first.leftScore()).hasValue(40);
        assertThat(first.rightScore()).hasValue(50);
        assertThat(first.deltaPercent()).hasValue(25);
        assertThat(first.direction()).isEqualTo(Published.Direction.RIGHT_BETTER);
        assertThat(first.source()).isEqualTo("coreclr #1, M: A 1Pc 40 → 50");
        assertThat(first.citation()).hasValueSatisfying(c -> {
            assertThat(c.url()).isEqualTo("https://example.org/2");
            assertThat(c.describe()).isEqualTo("dotnet/coreclr #1 (posted in dotnet/coreclr#2 by a, 2017-08-25)");
            assertThat(c.note()).isEqualTo("read in part");
        });

        Published second = figures.claim("e", "m", Workloads.create("mres-wait-drain-rate", "threads=2pc,delay=0"));
        assertThat(second.deltaPercent()).hasValue(-20);
        assertThat(second.leftScore()).isEmpty();
        assertThat(second.direction()).isEqualTo(Published.Direction.RIGHT_WORSE);

        Published claim = figures.claim("e", "m", Workloads.create("mres-wait-latency", "threads=2pc"));
        assertThat(claim.direction()).isEqualTo(Published.Direction.NEUTRAL);
        assertThat(claim.deltaPercent()).isEmpty();
        assertThat(figures.claim("e", "other", Workloads.create("mres-wait-latency", "threads=2pc")))
                .isEqualTo(Published.none());
        assertThat(figures.total("e", "m")).hasValueSatisfying(t -> assertThat(t.deltaPercent()).hasValue(12.5));
        assertThat(figures.total("e", "other")).isEmpty();
    }

    @Test
    void shouldClassifyAPublishedDeltaWithinFivePercentAsNeutralAndBeyondAsBetterOrWorse() {
        assertThat(Published.directionOf(5)).isEqualTo(Published.Direction.NEUTRAL);
        assertThat(Published.directionOf(-5)).isEqualTo(Published.Direction.NEUTRAL);
        assertThat(Published.directionOf(5.01)).isEqualTo(Published.Direction.RIGHT_BETTER);
        assertThat(Published.directionOf(-5.01)).isEqualTo(Published.Direction.RIGHT_WORSE);
        Published worse = Published.delta(-13, "x");
        assertThat(worse.judge(-30, -6)).isEqualTo(Verdict.AGREES);
        assertThat(worse.judge(-30, 0)).isEqualTo(Verdict.NEUTRAL);
        assertThat(worse.judge(-4, 10)).isEqualTo(Verdict.DISAGREES);
        assertThat(worse.judge(-13)).isEqualTo(Verdict.AGREES);
        assertThat(worse.judge(-5)).isEqualTo(Verdict.DISAGREES);
    }

    @Test
    void shouldRefuseAFileWithAnUnknownSourceADuplicateOrAFigureWithoutNumbers() {
        assertThatThrownBy(() -> PublishedFigures.parse("""
                {"sources": [], "figures": [{"source": "x", "scenario": "a", "workload": "w", "left": 1, "right": 2}],
                 "claims": [], "totals": []}"""))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("unknown source 'x'");
        assertThatThrownBy(() -> PublishedFigures.parse("{\"sources\": [%s, %s], \"figures\": [], \"claims\": [], \"totals\": []}"
                .formatted(SOURCE, SOURCE))).hasMessageContaining("source 's' appears twice");
        assertThatThrownBy(() -> PublishedFigures.parse("""
                {"sources": [%s], "figures": [{"source": "s", "scenario": "a", "workload": "w"}],
                 "claims": [], "totals": []}""".formatted(SOURCE)))
                .hasMessageContaining("figure 'a' has neither both scores nor a deltaPercent");
        assertThatThrownBy(() -> PublishedFigures.parse("""
                {"sources": [%s], "figures": [], "claims": [{"source": "s", "direction": "up", "text": "t"}],
                 "totals": []}""".formatted(SOURCE)))
                .hasMessageContaining("unknown direction 'up'; valid directions: better, not-worse, worse, neutral");
        assertThatThrownBy(() -> PublishedFigures.parse("{")).hasMessageStartingWith("published figures: not valid JSON");
    }

    @Test
    void shouldCiteASourceWithDateAuthorAndAddressForEveryPublishedRowOfEveryExperiment() {
        PublishedFigures standard = PublishedFigures.standard();
        Set<String> experiments = new HashSet<>(Experiments.names());
        for (PublishedFigures.Source source : standard.sources()) {
            assertThat(experiments).as(source.id()).contains(source.experiment());
            assertThat(source.citation().url()).as(source.id()).startsWith("https://github.com/dotnet/");
        }
        int cited = 0;
        for (Experiment experiment : Experiments.all()) {
            for (PlannedRow row : experiment.rows()) {
                if (row.published().direction() != Published.Direction.NONE) {
                    assertThat(row.published().citation()).as(row.toString()).isPresent();
                    cited++;
                }
            }
        }
        assertThat(cited).isEqualTo(141);
        // Every figure of the file reaches a row: a figure no row matches is a typo in its workload or parameters.
        List<String> reached = Experiments.all().stream().flatMap(e -> e.rows().stream())
                .map(r -> r.published().source()).toList();
        for (PublishedFigures.Figure figure : standard.figures()) {
            assertThat(reached).as(figure.scenario()).anySatisfy(s -> assertThat(s).contains(figure.scenario()));
        }
    }

    @Test
    void shouldGiveAMatchingRowThePublishedLeftScoreInOperationsPerMsWhenASourcePrintedItAlone() {
        PublishedFigures figures = PublishedFigures.parse("""
                {"sources": [%s],
                 "figures": [],
                 "claims": [{"source": "s", "workload": "quwi-suite", "direction": "better", "text": "improved"}],
                 "totals": [],
                 "levels": [{"source": "s", "scenario": "QUWI, Serial", "workload": "quwi-suite",
                             "where": {"drivers": "serial", "from": "threads"}, "left": 139736}]}
                """.formatted(SOURCE.replace("\"note\"", "\"scoreScale\": 0.001, \"note\"")));

        Published serial = figures.claim("e", "m", Workloads.create("quwi-suite", "drivers=1,depth=1"));
        assertThat(serial.direction()).isEqualTo(Published.Direction.RIGHT_BETTER);
        assertThat(serial.leftPerMs()).hasValueCloseTo(139.736, within(1e-9));
        assertThat(serial.leftScore()).isEmpty();
        assertThat(serial.citation()).isPresent();
        assertThat(figures.claim("e", "m", Workloads.create("quwi-suite", "drivers=2")).leftPerMs()).isEmpty();
        assertThat(figures.levels()).singleElement().satisfies(l -> assertThat(l.left()).isEqualTo(139736));
    }

    @Test
    void shouldRefuseALevelWithoutItsSourcesScaleOrAPositiveScore() {
        String level = """
                {"sources": [%s], "figures": [], "claims": [], "totals": [],
                 "levels": [{"source": "s", "scenario": "x", "workload": "quwi-suite", "left": %s}]}""";
        assertThatThrownBy(() -> PublishedFigures.parse(level.formatted(SOURCE, "10")))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("needs the source's scoreScale");
        String scaled = SOURCE.replace("\"note\"", "\"scoreScale\": 0.001, \"note\"");
        assertThatThrownBy(() -> PublishedFigures.parse(level.formatted(scaled, "0")))
                .hasMessageContaining("needs a positive 'left' score");
        assertThatThrownBy(() -> PublishedFigures.parse(level.formatted(
                SOURCE.replace("\"note\"", "\"scoreScale\": -1, \"note\""), "10")))
                .hasMessageContaining("scoreScale -1.0; valid: a positive number");
    }

    @Test
    void shouldCarryEveryBeforeCellOfTheThreadPoolTableToItsRow() {
        // coreclr #9234's 50 'before' cells, each on the quwi-suite row of its block, depth and drivers.
        PublishedFigures standard = PublishedFigures.standard();
        assertThat(standard.levels()).hasSize(50);
        List<PlannedRow> rows = Experiments.byName("threadpool-global-queue").rows().stream()
                .filter(r -> r.published().leftPerMs().isPresent()).toList();
        assertThat(rows).hasSize(50);
        assertThat(rows.getFirst().workload().parameters()).startsWith("drivers=serial,depth=1,from=pool,");
        assertThat(rows.getFirst().published().leftPerMs()).hasValueCloseTo(305.647, within(1e-9));
        assertThat(rows.getLast().workload().parameters()).startsWith("drivers=512,depth=512,from=threads,");
        assertThat(rows.getLast().published().leftPerMs()).hasValueCloseTo(177.688, within(1e-9));
    }
}
