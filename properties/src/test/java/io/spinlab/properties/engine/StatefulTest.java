package io.spinlab.properties.engine;

import org.junit.jupiter.api.Test;

import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

/** Stateful testing shrinks a bug to the shortest command sequence that shows it. */
class StatefulTest {

    /** A stack whose pop forgets to remove the element when exactly two are stored. */
    static final class BuggyStack {
        private final Deque<Integer> items = new ArrayDeque<>();

        void push(int x) {
            items.push(x);
        }

        int pop() {
            return items.size() == 2 ? items.peek() : items.pop();
        }

        int size() {
            return items.size();
        }
    }

    record Push(int value) implements Command<BuggyStack, Deque<Integer>> {
        @Override
        public void run(BuggyStack system, Deque<Integer> model) {
            system.push(value);
            model.push(value);
            assertThat(system.size()).isEqualTo(model.size());
        }
    }

    record Pop() implements Command<BuggyStack, Deque<Integer>> {
        @Override
        public boolean precondition(Deque<Integer> model) {
            return !model.isEmpty();
        }

        @Override
        public void run(BuggyStack system, Deque<Integer> model) {
            assertThat(system.pop()).isEqualTo(model.pop());
            assertThat(system.size()).isEqualTo(model.size());
        }
    }

    private static final Gen<Command<BuggyStack, Deque<Integer>>> COMMANDS = Gens.oneOf(
            Gens.integers(0, 100).map(Push::new), Gens.constant(new Pop()));

    @Test
    void shouldShrinkAStatefulBugToItsShortestSequence() {
        PropertyFailure failure = catchThrowableOfType(PropertyFailure.class, () ->
                Stateful.sequences(COMMANDS, 30).named("stack").seed(42).tries(200)
                        .run(Stateful.runner(BuggyStack::new, ArrayDeque::new)));
        assertThat(failure).as("the bug must be found").isNotNull();
        // Two pushes then a pop: the shortest sequence that reaches two stored elements and pops.
        assertThat(failure.minimalExample()).isEqualTo(List.of(new Push(0), new Push(0), new Pop()));
    }

    @Test
    void shouldPassACorrectSystem() {
        Property.Result result = Stateful.check("deque vs deque", ArrayDeque<Integer>::new, ArrayDeque<Integer>::new,
                Gens.<Command<Deque<Integer>, Deque<Integer>>>oneOf(
                        Gens.integers(0, 9).map(v -> (s, m) -> {
                            s.push(v);
                            m.push(v);
                        }),
                        Gens.constant((s, m) -> assertThat(s.poll()).isEqualTo(m.poll()))), 20);
        assertThat(result.tries()).isPositive();
    }
}
