package io.spinlab.impl.pool;

import io.spinlab.model.tuning.ThreadRequestPolicy;
import io.spinlab.model.tuning.Tuning;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** The pool with cascading thread requests (later .NET's scheme, a what-if here) under every contract. */
class CascadingThreadPoolTest extends ThreadPoolContractTest {

    @Override
    Tuning tuning() {
        return Tuning.parse("current,thread-requests=cascading");
    }

    @Test
    void shouldCascadeThreadRequests() {
        ThreadPool pool = track(builder().build());

        assertThat(pool.requestPolicy()).isEqualTo(ThreadRequestPolicy.CASCADING);
    }
}
