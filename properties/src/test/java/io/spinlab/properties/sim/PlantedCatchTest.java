package io.spinlab.properties.sim;

import io.spinlab.properties.engine.Gens;
import io.spinlab.properties.engine.Property;
import io.spinlab.properties.engine.PropertyFailure;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

class PlantedCatchTest {

    /** A "plant" that fails every number above 10: its catch is some number above 10. */
    private static PropertyFailure caughtAboveTen() {
        PropertyFailure failure = catchThrowableOfType(PropertyFailure.class, () ->
                Property.forAll(Gens.integers(0, 1_000)).named("planted").seed(1).tries(100)
                        .run(n -> assertThat(n).isLessThanOrEqualTo(10)));
        assertThat(failure).isNotNull();
        return failure;
    }

    @Test
    void shouldAcceptACatchThatTheCodeWithoutThePlantPasses() {
        PropertyFailure failure = caughtAboveTen();
        assertThatCode(() -> PlantedCatch.<Integer>assertTheUnplantedCodePasses(failure, n -> assertThat(n).isPositive()))
                .doesNotThrowAnyException();
    }

    @Test
    void shouldCallACatchVoidWhenTheCodeWithoutThePlantFailsTheSameWorld() {
        PropertyFailure failure = caughtAboveTen();
        assertThatThrownBy(() -> PlantedCatch.<Integer>assertTheUnplantedCodePasses(failure,
                n -> assertThat(n).isLessThan(5)))
                .isInstanceOf(AssertionError.class)
                .hasMessageStartingWith("the code without the plant fails the world that caught the plant too")
                .hasMessageEndingWith(": " + failure.minimalExample())
                .hasCauseInstanceOf(AssertionError.class);
    }
}
