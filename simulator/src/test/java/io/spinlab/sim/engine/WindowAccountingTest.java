package io.spinlab.sim.engine;

import io.spinlab.sim.trace.Activity;
import io.spinlab.sim.trace.MeasuredWindow;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** The processor time inside a measured window [100, 200) ps, interval by interval. */
class WindowAccountingTest {

    private static WindowAccounting window() {
        WindowAccounting w = new WindowAccounting();
        w.announce(100, 200);
        return w;
    }

    @Test
    void shouldCountOnlyThePartOfEachIntervalInsideTheWindow() {
        WindowAccounting w = window();
        w.charge(Activity.WORKING, 0, 50); // before: nothing
        w.charge(Activity.WORKING, 90, 20); // straddles the start: 10
        w.charge(Activity.SPINNING, 120, 30); // inside: 30
        w.charge(Activity.YIELDING, 190, 40); // straddles the end: 10
        w.charge(Activity.SPINNING, 200, 40); // after: nothing
        w.charge(Activity.SPINNING, 50, 500); // covers it: 100

        MeasuredWindow result = w.result().orElseThrow();
        assertThat(result.workingPicos()).isEqualTo(10);
        assertThat(result.spinningPicos()).isEqualTo(130);
        assertThat(result.yieldingPicos()).isEqualTo(10);
        assertThat(result.cpuPicos()).isEqualTo(150);
        assertThat(result.busyProcessors()).isEqualTo(1.5);
    }

    @Test
    void shouldTakeBackThePartInsideTheWindowOfAnIntervalCutShort() {
        WindowAccounting w = window();
        w.charge(Activity.SPINNING, 150, 100); // a PAUSE batch charged to 250: 50 inside
        w.charge(Activity.SPINNING, 180, -70); // cut at 180: [180, 250) taken back, 20 of it inside

        assertThat(w.result().orElseThrow().spinningPicos()).isEqualTo(30);
    }

    @Test
    void shouldLeaveOutTimeThatIsNotProcessorTime() {
        WindowAccounting w = window();
        w.charge(Activity.PARKED, 100, 100);
        w.charge(Activity.SLEEPING, 100, 100);
        w.charge(Activity.RUNNABLE, 100, 100);

        assertThat(w.result().orElseThrow().cpuPicos()).isZero();
    }

    @Test
    void shouldReportNothingWithoutAWindowAndKeepTheFirstOne() {
        WindowAccounting none = new WindowAccounting();
        none.charge(Activity.WORKING, 0, 1_000);
        assertThat(none.result()).isEmpty();

        WindowAccounting w = new WindowAccounting();
        w.announce(5, 5); // empty: ignored
        w.announce(100, 200);
        w.announce(0, 1_000); // later: ignored
        w.charge(Activity.WORKING, 0, 1_000);
        assertThat(w.result().orElseThrow().startPicos()).isEqualTo(100);
        assertThat(w.result().orElseThrow().workingPicos()).isEqualTo(100);
    }

    @Test
    void shouldNotOverflowOnAnEndlessInterval() {
        WindowAccounting w = window();
        w.charge(Activity.SPINNING, 150, Long.MAX_VALUE);
        assertThat(w.result().orElseThrow().spinningPicos()).isEqualTo(50);
    }
}
