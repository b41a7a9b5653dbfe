package io.spinlab.sim.workload;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The registry: fixed names, parameter text in and out, and clear errors for bad input. */
class WorkloadsTest {

    /** The names issue 7 fixes. */
    private static final List<String> FIXED = List.of("mres-wait-latency", "mres-wait-drain-rate",
            "semaphore-latency", "semaphore-throughput", "semaphore-wait-drain-rate", "spinlock-latency",
            "spinlock-throughput", "barrier-sync-rate", "queue-throughput", "stack-throughput",
            "countdown-addcount-signal-throughput", "eventpipe-stress", "quwi");

    @Test
    void shouldHoldEveryFixedNameWhenListed() {
        assertThat(Workloads.names()).containsAll(FIXED).contains("monitor-throughput").doesNotHaveDuplicates();
        assertThat(Workloads.spinPerfNames()).hasSize(11).allMatch(Workloads.names()::contains);
    }

    @Test
    void shouldParseBackEqualWorkloadWhenDescribed() {
        for (WorkloadType type : Workloads.all()) {
            Workload byDefault = type.createDefault();
            Workload again = Workloads.parse(byDefault.describe());

            assertThat(again).as(type.name()).isEqualTo(byDefault);
            assertThat(again.describe()).isEqualTo(byDefault.describe());
            assertThat(byDefault.name()).isEqualTo(type.name());
        }
    }

    @Test
    void shouldApplyGivenParametersWhenTextSetsThem() {
        Workload w = Workloads.create("mres-wait-drain-rate", "threads=64pc, delay=1us,window=2ms");

        assertThat(w.parameters()).isEqualTo("threads=64pc,delay=1us,warmup=1ms,window=2ms");
        assertThat(Workloads.create("quwi", "drivers=512,depth=64,mode=local").parameters())
                .isEqualTo("drivers=512,depth=64,mode=local,requests=tuning,spin=70,warmup=1ms,window=5ms");
        assertThat(Workloads.create("quwi", "drivers=1").parameters()).startsWith("drivers=serial,");
        assertThat(Workloads.create("spinlock-latency", "threads=12").parameters()).startsWith("threads=12,");
    }

    @Test
    void shouldListValidNamesWhenWorkloadIsUnknown() {
        assertThatThrownBy(() -> Workloads.create("mres-drain", ""))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("unknown workload 'mres-drain'")
                .hasMessageContaining("mres-wait-drain-rate").hasMessageContaining("quwi");
    }

    @Test
    void shouldListValidParametersWhenParameterIsUnknown() {
        assertThatThrownBy(() -> Workloads.create("barrier-sync-rate", "participants=4"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("unknown parameter 'participants'")
                .hasMessageContaining("threads, warmup, window");
        assertThatThrownBy(() -> Workloads.create("barrier-sync-rate", "threads"))
                .hasMessageContaining("not key=value");
        assertThatThrownBy(() -> Workloads.create("barrier-sync-rate", "threads=1pc,threads=2pc"))
                .hasMessageContaining("given twice");
    }

    @Test
    void shouldSayWhatIsValidWhenValueIsBad() {
        assertThatThrownBy(() -> Workloads.create("mres-wait-latency", "threads=0"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("mres-wait-latency")
                .hasMessageContaining("threads").hasMessageContaining("0.5pc, 1pc");
        assertThatThrownBy(() -> Workloads.create("mres-wait-latency", "window=-5ms"))
                .hasMessageContaining("window").hasMessageContaining("non-negative");
        assertThatThrownBy(() -> Workloads.create("mres-wait-latency", "window=0"))
                .hasMessageContaining("window").hasMessageContaining("longer than 0");
        assertThatThrownBy(() -> Workloads.create("quwi", "mode=both"))
                .hasMessageContaining("mode").hasMessageContaining("global, local");
        assertThatThrownBy(() -> Workloads.create("quwi", "drivers=0"))
                .hasMessageContaining("drivers").hasMessageContaining("serial");
        assertThatThrownBy(() -> Workloads.create("quwi", "depth=-1"))
                .hasMessageContaining("depth").hasMessageContaining("1..");
        assertThatThrownBy(() -> Workloads.create("eventpipe-stress", "limit=12qb"))
                .hasMessageContaining("limit").hasMessageContaining("kb, mb or gb");
        assertThatThrownBy(() -> Workloads.create("eventpipe-stress", "limit=512kb"))
                .hasMessageContaining("limit").hasMessageContaining("not valid");
        assertThatThrownBy(() -> Workloads.create("eventpipe-stress", "score=written"))
                .hasMessageContaining("score").hasMessageContaining("read, attempted");
        assertThatThrownBy(() -> Workloads.parse("quwi(depth=2"))
                .hasMessageContaining("name(key=value,...)");
    }
}
