package io.spinlab.properties.hunt;

import io.spinlab.model.tuning.Tuning;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class HuntTest {

    private static final List<String> MRES = HuntWorkloads.DEFAULT;

    @Test
    void shouldFindAndShrinkAPlantedRegression() {
        // Not spinning before blocking must lose to the current spin on a drain workload.
        Hunt.Config config = new Hunt.Config(Tuning.current(), Tuning.parse("current,spin=none"),
                List.of("mres-wait-drain-rate"), 30, 7, 10);
        Hunt.Report report = Hunt.run(config);
        System.out.println(report.describe(config));
        assertThat(report.found()).isPresent();
        HuntCase shrunk = report.found().orElseThrow();
        HuntCase original = report.original().orElseThrow();
        assertThat(shrunk.machine().logicalProcessors()).isLessThanOrEqualTo(original.machine().logicalProcessors());
        assertThat(shrunk.multiplier()).isLessThanOrEqualTo(original.multiplier());
        assertThat(shrunk.windowMicros()).isLessThanOrEqualTo(original.windowMicros());
        assertThat(report.deltaPercent()).isLessThan(-10);
        assertThat(report.replay()).contains("--replay c:").contains("--candidate current,spin=none");

        String choices = report.replay().substring(report.replay().indexOf("c:"));
        Hunt.Report replayed = Hunt.replay(config, choices);
        assertThat(replayed.found()).contains(shrunk);
        assertThat(replayed.candidateScore()).isEqualTo(report.candidateScore());
    }

    @Test
    void shouldReportNothingWhenTheCandidateIsTheBaseline() {
        Hunt.Config config = new Hunt.Config(Tuning.current(), Tuning.current(), MRES, 5, 3, 1);
        Hunt.Report report = Hunt.run(config);
        assertThat(report.found()).isEmpty();
        assertThat(report.casesTried()).isEqualTo(5);
        assertThat(report.describe(config)).contains("no regression");
    }

    @Test
    void shouldHuntCurrentAgainstLegacyOverTheMresWorkloads() {
        Hunt.Config config = new Hunt.Config(Tuning.legacy(), Tuning.current(), MRES, 40, 2026, 10);
        Hunt.Report report = Hunt.run(config);
        System.out.println(report.describe(config));
        report.found().ifPresent(found -> assertThat(report.candidateScore())
                .isLessThan(report.baselineScore() * 0.9));
    }

    @Test
    void shouldRejectABadConfiguration() {
        assertThatThrownBy(() -> new Hunt.Config(Tuning.current(), Tuning.legacy(), List.of("nope"), 5, 1, 5))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("unknown hunt workload 'nope'")
                .hasMessageContaining("mres-wait-drain-rate");
        assertThatThrownBy(() -> new Hunt.Config(Tuning.current(), Tuning.legacy(), MRES, 0, 1, 5))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("budget = 0");
        assertThatThrownBy(() -> new Hunt.Config(Tuning.current(), Tuning.legacy(), MRES, 5, 1, 100))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("threshold");
    }
}
