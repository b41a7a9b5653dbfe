package io.spinlab.sim.workload;

import io.spinlab.model.tuning.Tuning;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

/**
 * Every registry workload runs to completion on real threads on this machine (whatever its
 * processor count), under the current and the legacy tuning, at one and four threads per
 * processor, and does real work: operations are counted inside its window. Scores are not
 * asserted: a shared build machine makes them noise. A loaded machine may starve a short
 * window, so a run that counted nothing is repeated with a window four times longer, up to
 * {@link #WINDOWS_MS}'s last; only a workload that counts nothing even then fails.
 */
class WorkloadsOnHardwareTest {

    /** Measured windows tried in turn, ms. */
    private static final List<Integer> WINDOWS_MS = List.of(10, 40, 160, 640);

    static List<String> names() {
        return Workloads.names();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("names")
    void shouldCountOperationsOnRealThreadsWhenRunAtSmallSettings(String name) throws InterruptedException {
        WorkloadType type = Workloads.byName(name);
        boolean threaded = type.parameterKeys().contains("threads");
        List<String> settings = threaded ? List.of("threads=1pc", "threads=4pc")
                : type.parameterKeys().contains("mode") ? List.of("drivers=2,depth=16", "drivers=8,depth=2,mode=local")
                : List.of("drivers=2,depth=16", "drivers=8,depth=2,from=pool");
        for (String setting : settings) {
            for (Tuning tuning : List.of(Tuning.current(), Tuning.legacy())) {
                runUntilItCounts(name, type, setting, tuning);
            }
        }
    }

    private static void runUntilItCounts(String name, WorkloadType type, String setting, Tuning tuning)
            throws InterruptedException {
        StringBuilder tried = new StringBuilder();
        for (int windowMs : WINDOWS_MS) {
            Workload workload = type.create(setting + ",warmup=2ms,window=" + windowMs + "ms");

            WorkloadResult result = WorkloadRunner.onHardware(workload, tuning);

            assertThat(result.workload()).isEqualTo(name);
            assertThat(result.platform()).isEqualTo("hardware");
            assertThat(result.parameters()).isEqualTo(workload.parameters());
            assertThat(result.elapsedNanos()).isEqualTo(windowMs * 1_000_000L);
            assertThat(result.metrics()).containsKey(type.parameterKeys().contains("threads") ? "threads" : "drivers");
            if (result.operations() > 0) {
                return;
            }
            tried.append("\n  ").append(result);
        }
        fail("%s with %s counted no operation in any window:%s", name, tuning.describe(), tried);
    }
}
