package io.spinlab.sim.workload;

import io.spinlab.model.tuning.Tuning;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Every registry workload runs to completion on real threads on this machine (whatever its
 * processor count), under the current and the legacy tuning, at one and four threads per
 * processor. Scores are not asserted: a shared build machine makes them noise.
 */
class WorkloadsOnHardwareTest {

    private static final String WINDOW = "warmup=2ms,window=10ms";

    static List<String> names() {
        return Workloads.names();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("names")
    void shouldCompleteOnRealThreadsWhenRunAtSmallSettings(String name) throws InterruptedException {
        WorkloadType type = Workloads.byName(name);
        boolean threaded = type.parameterKeys().contains("threads");
        List<String> settings = threaded ? List.of("threads=1pc," + WINDOW, "threads=4pc," + WINDOW)
                : List.of("drivers=2,depth=16," + WINDOW, "drivers=8,depth=2,mode=local," + WINDOW);
        for (String parameters : settings) {
            for (Tuning tuning : List.of(Tuning.current(), Tuning.legacy())) {
                Workload workload = type.create(parameters);

                WorkloadResult result = WorkloadRunner.onHardware(workload, tuning);

                assertThat(result.workload()).isEqualTo(name);
                assertThat(result.platform()).isEqualTo("hardware");
                assertThat(result.parameters()).isEqualTo(workload.parameters());
                assertThat(result.elapsedNanos()).isEqualTo(10_000_000);
                assertThat(result.operations()).isNotNegative();
                assertThat(result.metrics()).containsKey(threaded ? "threads" : "drivers");
            }
        }
    }
}
