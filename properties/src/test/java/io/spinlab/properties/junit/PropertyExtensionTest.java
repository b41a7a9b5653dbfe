package io.spinlab.properties.junit;

import io.spinlab.properties.engine.PropertyFailure;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.platform.engine.TestExecutionResult;
import org.junit.platform.testkit.engine.EngineTestKit;
import org.junit.platform.testkit.engine.Events;
import org.opentest4j.AssertionFailedError;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;

/**
 * {@link PropertyTest} through JUnit itself (EngineTestKit runs the classes of
 * {@link PropertyTestFixtures}): a holding property passes after its tries, a broken one fails as
 * an {@link AssertionFailedError} with the seed, the shrunk example and how to replay it, and the
 * printed replay reproduces exactly that example.
 */
class PropertyExtensionTest {

    @BeforeEach
    void forgetWhatFixturesSaw() {
        PropertyTestFixtures.SEEN.clear();
    }

    private static Events run(Class<?> fixture) {
        return EngineTestKit.engine("junit-jupiter")
                .configurationParameter(PropertyTestFixtures.ENABLED, "true")
                .selectors(selectClass(fixture))
                .execute()
                .testEvents();
    }

    private static Throwable failureOf(Events events) {
        assertThat(events.failed().count()).as("failed tests").isEqualTo(1);
        return events.failed().stream().findFirst().orElseThrow().getPayload(TestExecutionResult.class)
                .orElseThrow().getThrowable().orElseThrow();
    }

    @Test
    void shouldPassAfterEveryTryWhenThePropertyHolds() {
        Events events = run(PropertyTestFixtures.Passing.class);

        assertThat(events.succeeded().count()).isEqualTo(1);
        assertThat(events.failed().count()).isZero();
        // One call per try, each with the other resolved parameters (TestInfo) passed through.
        assertThat(PropertyTestFixtures.SEEN).hasSize(25)
                .allSatisfy(seen -> assertThat((String) seen).startsWith("sumsShouldNotDependOnOrder ["));
    }

    @Test
    void shouldDrawTheSameExamplesFromTheSameSeed() {
        run(PropertyTestFixtures.Passing.class);
        List<Object> first = List.copyOf(PropertyTestFixtures.SEEN);
        PropertyTestFixtures.SEEN.clear();
        run(PropertyTestFixtures.Passing.class);

        assertThat(PropertyTestFixtures.SEEN).isEqualTo(first);
    }

    @Test
    void shouldFailAsAnAssertionWithTheSeedAndTheShrunkExampleWhenThePropertyBreaks() {
        Throwable failure = failureOf(run(PropertyTestFixtures.Failing.class));
        System.out.println(failure.getMessage());

        assertThat(failure).isInstanceOf(AssertionFailedError.class);
        assertThat(failure.getMessage())
                .contains("Property 'Failing.listsShouldHaveFewerThanThreeElements' failed")
                .contains("minimal:  list=[0, 0, 0]")
                .contains("-Dspinlab.replay=" + PropertyTestFixtures.MINIMAL_CHOICES)
                .contains("@PropertyTest(replay = \"" + PropertyTestFixtures.MINIMAL_CHOICES + "\")")
                .containsPattern("@PropertyTest\\(seed = \"-?\\d+\"\\)");
        assertThat(failure.getCause()).isInstanceOf(PropertyFailure.class);
        PropertyFailure property = (PropertyFailure) failure.getCause();
        assertThat(property.minimalChoices()).hasToString(PropertyTestFixtures.MINIMAL_CHOICES);
    }

    @Test
    void shouldReproduceTheMinimalExampleWhenReplayedFromTheAnnotation() {
        Throwable failure = failureOf(run(PropertyTestFixtures.Replaying.class));

        assertThat(PropertyTestFixtures.SEEN).as("one try, the minimal example").containsExactly(List.of(0, 0, 0));
        assertThat(failure).isInstanceOf(AssertionFailedError.class);
        assertThat(failure.getMessage()).contains("replayed example " + PropertyTestFixtures.MINIMAL_CHOICES)
                .contains("list=[0, 0, 0]");
    }

    @Test
    void shouldShrinkAThrownExceptionToItsSimplestCause() {
        Throwable failure = failureOf(run(PropertyTestFixtures.Throwing.class));

        assertThat(failure.getMessage()).contains("minimal:  divisor=0");
        assertThat(failure.getCause().getCause()).isInstanceOf(ArithmeticException.class);
    }
}
