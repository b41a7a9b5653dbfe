package io.spinlab.sim.engine;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class SimRandomTest {

    @Test
    void shouldRepeatSequenceWhenSeedIsTheSame() {
        SimRandom a = new SimRandom(123);
        SimRandom b = new SimRandom(123);
        for (int i = 0; i < 1_000; i++) {
            assertThat(a.nextLong()).isEqualTo(b.nextLong());
        }
    }

    /** xoshiro256** seeded by SplitMix64 is defined bit for bit: pinned so replays survive JDK and host changes. */
    @Test
    void shouldMatchPinnedOutputWhenSeededWithZero() {
        SimRandom random = new SimRandom(0);

        long first = random.nextLong();
        long second = random.nextLong();

        assertThat(first).isEqualTo(PINNED_FIRST);
        assertThat(second).isEqualTo(PINNED_SECOND);
    }

    /** Computed independently (a 20-line Python transcription of the reference C code). */
    private static final long PINNED_FIRST = -7355399402456485196L;
    private static final long PINNED_SECOND = -4652746763540216534L;

    @Test
    void shouldStayInBoundsAndCoverRangeWhenDrawingInts() {
        SimRandom random = new SimRandom(9);
        int[] counts = new int[7];
        for (int i = 0; i < 70_000; i++) {
            counts[random.nextInt(7)]++;
        }
        for (int count : counts) {
            assertThat(count).isBetween(9_000, 11_000);
        }
        for (int i = 0; i < 1_000; i++) {
            assertThat(random.nextLong(1_000_003)).isBetween(0L, 1_000_002L);
            assertThat(random.nextInt(16)).isBetween(0, 15);
            assertThat(random.nextDouble()).isGreaterThanOrEqualTo(0).isLessThan(1);
        }
    }

    @Test
    void shouldNotDrawWhenChanceIsZeroOrOne() {
        SimRandom random = new SimRandom(5);
        SimRandom twin = new SimRandom(5);

        assertThat(random.chance(0)).isFalse();
        assertThat(random.chance(1)).isTrue();
        assertThat(random.nextLong()).isEqualTo(twin.nextLong());
    }

    @Test
    void shouldDeriveIndependentStreamWhenSplitting() {
        SimRandom parent = new SimRandom(1);
        SimRandom child = parent.split();

        assertThat(child.nextLong()).isNotEqualTo(parent.nextLong());
    }

    @Test
    void shouldRejectNonPositiveBound() {
        assertThatThrownBy(() -> new SimRandom(1).nextInt(0)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new SimRandom(1).nextLong(-1)).isInstanceOf(IllegalArgumentException.class);
    }
}
