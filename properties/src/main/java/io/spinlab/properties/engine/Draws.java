package io.spinlab.properties.engine;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * An example drawn while the property runs: the body asks it for values, one generator at a
 * time, instead of receiving one pre-built example. Every value comes from the example's
 * {@link Source}, so it is recorded, shrunk and replayed like any other; and every value is
 * logged, so a failure report shows what was drawn ({@code writers=3, events=[0, 7]}).
 *
 * <pre>{@code
 * Property.forAll(Draws.drawing()).run(draws -> {
 *     int n = draws.draw("n", Gens.integers(0, 10));
 *     List<Integer> list = draws.draw("list", Gens.lists(Gens.integers(0, 100), n, n));
 *     ...
 * });
 * }</pre>
 *
 * <p>This is what an {@link io.spinlab.properties.junit.PropertyTest} method receives. One
 * instance per try; not thread-safe (draw on the thread that runs the body).
 */
public final class Draws {

    private final Source source;
    private final List<String> drawn = new ArrayList<>();

    private Draws(Source source) {
        this.source = source;
    }

    /** The generator of fresh {@code Draws}: each try's body draws from it as it goes. */
    public static Gen<Draws> drawing() {
        return Draws::new;
    }

    /** A value of {@code gen}, logged as itself. */
    public <T> T draw(Gen<T> gen) {
        Objects.requireNonNull(gen, "gen");
        T value = gen.generate(source);
        drawn.add(String.valueOf(value));
        return value;
    }

    /** A value of {@code gen}, logged as {@code label=value}. */
    public <T> T draw(String label, Gen<T> gen) {
        Objects.requireNonNull(label, "label");
        Objects.requireNonNull(gen, "gen");
        T value = gen.generate(source);
        drawn.add(label + "=" + value);
        return value;
    }

    /** What was drawn so far, in order. */
    public List<String> drawn() {
        return List.copyOf(drawn);
    }

    @Override
    public String toString() {
        return drawn.isEmpty() ? "(nothing drawn)" : String.join(", ", drawn);
    }
}
