package io.spinlab.impl.collections;

import io.spinlab.impl.spin.SpinContext;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** ConcurrentQueue prints like the JDK's collections, as the JSR-166 Collection8Test expects. */
class ConcurrentQueueToStringTest {

    @Test
    void shouldPrintLikeAJdkCollectionWhenEmptyOrNot() {
        ConcurrentQueue<Integer> queue = new ConcurrentQueue<>(SpinContext.hardware(), 4);
        assertThat(queue).hasToString("[]");
        queue.addAll(List.of(1, 2, 3, 4, 5));
        assertThat(queue).hasToString("[1, 2, 3, 4, 5]").hasToString(List.of(1, 2, 3, 4, 5).toString());
    }
}
