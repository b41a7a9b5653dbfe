package io.spinlab.sim.experiment;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class MechanismsTest {

    @Test
    void shouldExplainARowByTheFirstEntryWhoseExperimentMachineWorkloadAndParametersMatch() {
        Mechanisms mechanisms = Mechanisms.parse("""
                {"mechanisms": [
                  {"experiment": "e", "machine": "m", "workload": "w", "where": {"mode": ["local", "both"]},
                   "text": "local"},
                  {"experiment": "e", "workload": "w", "text": "any machine"}]}""");

        assertThat(mechanisms.explain("e", "m", "w", "drivers=2,mode=local")).hasValue("local");
        assertThat(mechanisms.explain("e", "m", "w", "drivers=2,mode=global")).hasValue("any machine");
        assertThat(mechanisms.explain("e", "n", "w", "mode=local")).hasValue("any machine");
        assertThat(mechanisms.explain("e", "m", "v", "mode=local")).isEmpty();
        assertThat(mechanisms.explain("f", "m", "w", "mode=local")).isEmpty();
    }

    @Test
    void shouldRefuseAnEntryWithoutExperimentOrText() {
        assertThatThrownBy(() -> Mechanisms.parse("{\"mechanisms\": [{\"experiment\": \"e\"}]}"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("'experiment' and 'text' are required");
        assertThatThrownBy(() -> Mechanisms.parse("{}")).hasMessageContaining("'mechanisms' must be an array");
    }

    @Test
    void shouldExplainTheKnownDisagreementsOfTheStandardFile() {
        Mechanisms standard = Mechanisms.standard();
        assertThat(standard.explain("threadpool-global-queue", "xeon-2s-32t", "quwi-suite",
                "drivers=serial,depth=1,from=threads,requests=per-item")).hasValueSatisfying(
                        t -> assertThat(t).startsWith("One driver queues"));
        assertThat(standard.explain("threadpool-global-queue", "xeon-2s-32t", "quwi-suite",
                "drivers=64,depth=512,from=pool,requests=per-item")).hasValueSatisfying(
                        t -> assertThat(t).contains("Sleep(1)"));
        assertThat(standard.explain("eventpipe-lockless", "kabylake-i7-7700hq", "eventpipe-stress",
                "threads=32,score=read")).hasValueSatisfying(t -> assertThat(t).contains("reader"));
        assertThat(standard.explain("mres-proc-scaling", "sandybridge-e5-1650", "mres-wait-drain-rate",
                "threads=64pc,delay=1us,warmup=400ms,window=40ms")).hasValueSatisfying(
                        t -> assertThat(t).contains("Sleep(1)"));
        assertThat(standard.explain("mres-proc-scaling", "sandybridge-e5-1650", "mres-wait-drain-rate",
                "threads=0.5pc,delay=1us,warmup=2ms,window=4ms")).hasValueSatisfying(
                        t -> assertThat(t).contains("bistable"));
        assertThat(standard.explain("future-cpus", "future-p1-n4", "spinlock-throughput", "threads=1pc")).isEmpty();
    }
}
