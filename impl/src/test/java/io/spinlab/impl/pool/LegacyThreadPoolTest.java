package io.spinlab.impl.pool;

import io.spinlab.model.tuning.ThreadRequestPolicy;
import io.spinlab.model.tuning.Tuning;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The pool with .NET Core 1.x's global queue ({@code global-queue=queue-segment}) on
 * {@code netcore2.0} under every contract; its thread requests stay per-item, from their own knob.
 */
class LegacyThreadPoolTest extends ThreadPoolContractTest {

    @Override
    Tuning tuning() {
        return Tuning.parse("netcore2.0,global-queue=queue-segment");
    }

    @Test
    void shouldKeepTheGenerationsRequestPolicyWhenOnlyTheGlobalQueueChanges() {
        ThreadPool pool = track(builder().build());

        assertThat(pool.requestPolicy()).isEqualTo(ThreadRequestPolicy.PER_ITEM);
        assertThat(pool.globalQueuePolicy()).hasToString("QUEUE_SEGMENT");
    }
}
