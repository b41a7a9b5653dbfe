package io.spinlab.impl.platform;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** The real platform's answers that do not depend on timing. */
class HardwarePlatformTest {

    @Test
    void shouldReportTheProcessorsThisProcessStartedWithOnEveryCall() {
        int atStart = HardwarePlatform.INSTANCE.processorCount();

        assertThat(atStart).isPositive().isEqualTo(Runtime.getRuntime().availableProcessors());
        for (int i = 0; i < 1_000; i++) {
            assertThat(HardwarePlatform.INSTANCE.processorCount()).isEqualTo(atStart);
        }
    }
}
