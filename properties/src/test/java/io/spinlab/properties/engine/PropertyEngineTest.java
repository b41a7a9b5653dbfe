package io.spinlab.properties.engine;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

/** The engine shrinks known failures to their known minimal form and replays exactly. */
class PropertyEngineTest {

    private static final long SEED = 20261130L;

    @Test
    void shouldShrinkAListToTheSmallestCounterexample() {
        PropertyFailure failure = catchThrowableOfType(PropertyFailure.class, () ->
                Property.forAll(Gens.lists(Gens.integers(0, 1_000), 0, 50)).named("sum below 100").seed(SEED)
                        .check(list -> list.stream().mapToInt(Integer::intValue).sum() < 100));
        assertThat(failure).isNotNull();
        assertThat(failure.minimalExample()).isEqualTo(List.of(100));
        assertThat((List<?>) failure.originalExample()).isNotEmpty();
        assertThat(failure.getMessage()).contains("seed " + failure.seed()).contains("minimal:  [100]")
                .contains("-Dspinlab.replay=c:").contains("-Dspinlab.seed=");
    }

    @Test
    void shouldShrinkAnIntegerToTheBoundary() {
        PropertyFailure failure = catchThrowableOfType(PropertyFailure.class, () ->
                Property.forAll(Gens.integers(0, 1_000_000)).seed(SEED).check(x -> x < 1_000));
        assertThat(failure.minimalExample()).isEqualTo(1_000);
    }

    @Test
    void shouldShrinkNegativeNumbersTowardZero() {
        PropertyFailure failure = catchThrowableOfType(PropertyFailure.class, () ->
                Property.forAll(Gens.integers(-1_000, 1_000)).seed(SEED).check(x -> x > -50));
        assertThat(failure.minimalExample()).isEqualTo(-50);
    }

    @Test
    void shouldShrinkThroughMapAndFlatMapWithoutAHandWrittenShrinker() {
        Gen<List<Integer>> sizedLists = Gens.integers(0, 10)
                .flatMap(n -> Gens.lists(Gens.integers(0, 100).map(x -> x * 2), n, n));
        PropertyFailure failure = catchThrowableOfType(PropertyFailure.class, () ->
                Property.forAll(sizedLists).seed(SEED).check(list -> list.size() < 3 || list.get(2) < 20));
        assertThat(failure.minimalExample()).isEqualTo(List.of(0, 0, 20));
    }

    @Test
    void shouldReplayTheOriginalExampleFromThePrintedSeed() {
        PropertyFailure first = catchThrowableOfType(PropertyFailure.class, () ->
                Property.forAll(Gens.lists(Gens.integers(0, 1_000), 0, 50)).seed(SEED)
                        .check(list -> list.size() < 7));
        PropertyFailure replayed = catchThrowableOfType(PropertyFailure.class, () ->
                Property.forAll(Gens.lists(Gens.integers(0, 1_000), 0, 50)).seed(first.seed()).tries(1)
                        .check(list -> list.size() < 7));
        assertThat(replayed.originalExample()).isEqualTo(first.originalExample());
        assertThat(replayed.minimalExample()).isEqualTo(first.minimalExample());
    }

    @Test
    void shouldReplayTheMinimalExampleFromItsChoices() {
        PropertyFailure first = catchThrowableOfType(PropertyFailure.class, () ->
                Property.forAll(Gens.lists(Gens.integers(0, 1_000), 0, 50)).seed(SEED)
                        .check(list -> list.stream().mapToInt(Integer::intValue).sum() < 100));
        List<Object> seen = new ArrayList<>();
        PropertyFailure replayed = catchThrowableOfType(PropertyFailure.class, () ->
                Property.forAll(Gens.lists(Gens.integers(0, 1_000), 0, 50))
                        .replay(first.minimalChoices().toString())
                        .check(list -> {
                            seen.add(list);
                            return list.stream().mapToInt(Integer::intValue).sum() < 100;
                        }));
        assertThat(seen).containsExactly(List.of(100));
        assertThat(replayed.minimalExample()).isEqualTo(List.of(100));
    }

    @Test
    void shouldRejectAReplayTheGeneratorDrawsDifferentlyBeforeTheBodyRunsEvenWhenItWouldFail() {
        List<Object> seen = new ArrayList<>();
        // Two integers in 0..9: 99 is out of range, and the generator draws a different sequence.
        assertThatThrownBy(() -> Property.forAll(Gens.integers(0, 9).flatMap(a -> Gens.integers(0, 9)))
                .replay("c:99,99,99").check(x -> {
                    seen.add(x);
                    return false;
                }))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("replay c:99,99,99 is not a sequence this property's generator draws");
        assertThat(seen).isEmpty();
    }

    @Test
    void shouldGenerateTheSameExamplesFromTheSameSeed() {
        List<Object> a = new ArrayList<>();
        List<Object> b = new ArrayList<>();
        Gen<List<Long>> gen = Gens.lists(Gens.longs(-5, Long.MAX_VALUE), 0, 10);
        Property.forAll(gen).seed(7).tries(50).run(a::add);
        Property.forAll(gen).seed(7).tries(50).run(b::add);
        assertThat(a).hasSize(50).isEqualTo(b);
    }

    @Test
    void shouldPassAndSayWithWhichSeed() {
        Property.Result result = Property.forAll(Gens.booleans()).named("tautology").seed(3).tries(20)
                .check(b -> b || !b);
        assertThat(result.tries()).isEqualTo(20);
        assertThat(result.seed()).isEqualTo(3);
        assertThat(result.toString()).contains("tautology").contains("20 tries passed").contains("seed 3");
    }

    @Test
    void shouldStayInsideRangesAndPickEveryOption() {
        List<Object> seen = new ArrayList<>();
        Gen<Gens.Pair<Integer, String>> gen = Gens.pairs(Gens.integers(-3, 7), Gens.choose("a", "b", "c"));
        Property.forAll(gen).seed(11).tries(300).run(pair -> {
            assertThat(pair.first()).isBetween(-3, 7);
            seen.add(pair.second());
        });
        assertThat(seen).contains("a", "b", "c");
    }

    @Test
    void shouldFailClearlyWhenAFilterRejectsTooMuch() {
        assertThatThrownBy(() -> Property.forAll(Gens.integers(0, 1_000_000).filter(x -> x == -1)).seed(1).tries(1)
                .check(x -> true))
                .isInstanceOf(Gen.FilterExhaustedException.class)
                .hasMessageContaining("a filter rejected 100 examples in a row");
    }

    @Test
    void shouldRejectBadConfiguration() {
        assertThatThrownBy(() -> Property.forAll(Gens.booleans()).tries(0)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("tries = 0");
        assertThatThrownBy(() -> Gens.integers(5, 1)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("empty range");
        assertThatThrownBy(() -> Choices.parse("c:1,x")).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("element 1");
        assertThatThrownBy(() -> Gens.lists(Gens.booleans(), 3, 2)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void frequencyShouldFavourHeavierOptions() {
        int[] counts = new int[2];
        Property.forAll(Gens.frequency(Gens.weighted(9, Gens.constant(0)), Gens.weighted(1, Gens.constant(1))))
                .seed(5).tries(1_000).run(i -> counts[i]++);
        assertThat(counts[0]).isGreaterThan(counts[1] * 4);
        assertThat(counts[1]).isPositive();
    }
}
