package io.spinlab.sim.workload;

import io.spinlab.impl.platform.HardwarePlatform;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.concurrent.CountDownLatch;

import static org.assertj.core.api.Assertions.assertThat;

class ThreadTimesTest {

    @Test
    void shouldTellABusyThreadFromAParkedOneAndNameEach() throws Exception {
        ThreadTimes times = ThreadTimes.around(HardwarePlatform.INSTANCE);
        CountDownLatch release = new CountDownLatch(1);
        long[] sink = new long[1];
        Thread busy = times.platform().startThread("busy", () -> {
            long x = 1;
            for (int i = 0; i < 200_000_000; i++) {
                x = x * 6364136223846793005L + 1442695040888963407L;
            }
            sink[0] = x;
            for (int i = 0; i < 3; i++) {
                times.platform().yieldThread();
            }
        });
        Thread idle = times.platform().startThread("idle", () -> {
            while (release.getCount() > 0) {
                times.platform().parkNanos(release, 1_000_000);
            }
        });
        busy.join();
        List<ThreadTimes.Entry> whileIdleRuns = times.entries();
        assertThat(whileIdleRuns).extracting(ThreadTimes.Entry::name).containsExactly("busy", "idle");
        assertThat(whileIdleRuns.get(0).ended()).isTrue();
        assertThat(whileIdleRuns.get(1).ended()).isFalse();
        release.countDown();
        idle.join();
        List<ThreadTimes.Entry> after = times.entries();
        assertThat(after).allMatch(ThreadTimes.Entry::ended);
        assertThat(after.get(0).yields()).isEqualTo(3);
        assertThat(after.get(0).parks()).isZero();
        assertThat(after.get(1).parks()).isPositive();
        assertThat(after.get(1).yields()).isZero();
        // 200 M dependent multiply-adds take at least tens of ms of processor time; a thread that parks
        // in 1 ms naps takes a small share of its lifetime.
        assertThat(after.get(0).cpuNanos()).isGreaterThan(after.get(1).cpuNanos());
        assertThat(after.get(1).cpuNanos()).isLessThan(after.get(1).lifetimeNanos());
        assertThat(times.table()).contains("busy").contains("idle").contains("all threads")
                .doesNotContain("still running");
        assertThat(sink[0]).isNotZero();
    }
}
