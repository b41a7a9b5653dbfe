package io.spinlab.impl.pool;

import io.spinlab.model.tuning.Tuning;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** The pool with {@code global-queue=queue-segment} and per-item thread requests (.NET Core 2.0). */
class LegacyThreadPoolTest extends ThreadPoolContractTest {

    @Override
    Tuning tuning() {
        return Tuning.legacy();
    }

    @Test
    void shouldRequestPerItemWhenGlobalQueueIsQueueSegment() {
        ThreadPool pool = track(builder().build());

        assertThat(pool.requestPolicy()).isEqualTo(ThreadPool.ThreadRequestPolicy.PER_ITEM);
        assertThat(pool.globalQueuePolicy()).hasToString("QUEUE_SEGMENT");
    }
}
