package io.spinlab.properties.junit;

import io.spinlab.properties.engine.Draws;
import io.spinlab.properties.engine.Gens;
import org.junit.jupiter.api.TestInfo;
import org.junit.jupiter.api.extension.ConditionEvaluationResult;
import org.junit.jupiter.api.extension.ExecutionCondition;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.ExtensionContext;

import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@link PropertyTest} classes that {@link PropertyExtensionTest} runs through JUnit's
 * EngineTestKit. Some fail on purpose, so they run only there: the build's test run neither
 * selects them (the class name matches no test pattern) nor, from an IDE, enables them.
 */
final class PropertyTestFixtures {

    /** The configuration parameter EngineTestKit sets to enable the fixtures. */
    static final String ENABLED = "spinlab.fixtures";

    /** What the fixtures saw, for the test to inspect; reset before each EngineTestKit run. */
    static final List<Object> SEEN = new ArrayList<>();

    /**
     * The minimal choices of {@link Failing#listsShouldHaveFewerThanThreeElements} with seed 42 —
     * what its report prints — used by {@link Replaying}; the test checks they agree.
     */
    static final String MINIMAL_CHOICES = "c:1,0,1,0,1,0,0";

    private PropertyTestFixtures() {
    }

    /** Enables a fixture only under EngineTestKit with {@link #ENABLED} set. */
    static final class OnlyInTestKit implements ExecutionCondition {
        @Override
        public ConditionEvaluationResult evaluateExecutionCondition(ExtensionContext context) {
            return context.getConfigurationParameter(ENABLED).isPresent()
                    ? ConditionEvaluationResult.enabled("run by PropertyExtensionTest")
                    : ConditionEvaluationResult.disabled("a fixture of PropertyExtensionTest, which runs it");
        }
    }

    @ExtendWith(OnlyInTestKit.class)
    static class Passing {
        @PropertyTest(tries = 25, seed = "7")
        void sumsShouldNotDependOnOrder(Draws draws, TestInfo info) {
            List<Integer> list = draws.draw("list", Gens.lists(Gens.integers(-100, 100), 0, 10));
            SEEN.add(info.getTestMethod().orElseThrow().getName() + " " + list);
            int forward = list.stream().mapToInt(Integer::intValue).sum();
            int backward = list.reversed().stream().mapToInt(Integer::intValue).sum();
            assertThat(backward).isEqualTo(forward);
        }
    }

    @ExtendWith(OnlyInTestKit.class)
    static class Failing {
        @PropertyTest(tries = 200, seed = "42")
        void listsShouldHaveFewerThanThreeElements(Draws draws) {
            List<Integer> list = draws.draw("list", Gens.lists(Gens.integers(0, 1_000), 0, 20));
            assertThat(list).hasSizeLessThan(3);
        }
    }

    @ExtendWith(OnlyInTestKit.class)
    static class Replaying {
        @PropertyTest(replay = MINIMAL_CHOICES)
        void listsShouldHaveFewerThanThreeElements(Draws draws) {
            List<Integer> list = draws.draw("list", Gens.lists(Gens.integers(0, 1_000), 0, 20));
            SEEN.add(list);
            assertThat(list).hasSizeLessThan(3);
        }
    }

    @ExtendWith(OnlyInTestKit.class)
    static class Throwing {
        @PropertyTest(tries = 50, seed = "3")
        void divisionShouldNotThrow(Draws draws) {
            int divisor = draws.draw("divisor", Gens.integers(-3, 1_000));
            SEEN.add(100 / divisor);
        }
    }
}
