package io.spinlab.properties.sim;

import io.spinlab.properties.engine.PropertyFailure;

import java.util.List;
import java.util.function.Consumer;

/**
 * The control of a planted bug's catch: the unmutated code must pass the worlds that caught the plant
 * (the shrunk one and the one first generated). Without it a catch can be a bug of the real code that
 * the same world also shows, and then it proves nothing about the checker: that happened once
 * (ThreadPoolNoLostRequestProperties, impl's MUTATION.md, "A false catch").
 */
final class PlantedCatch {

    private PlantedCatch() {
    }

    /**
     * Runs {@code unmutatedCheck} (the property's check without the plant) on the failure's minimal and
     * original examples; an assertion it throws is reported as a void catch, with the world.
     */
    @SuppressWarnings("unchecked")
    static <W> void assertTheUnplantedCodePasses(PropertyFailure failure, Consumer<W> unmutatedCheck) {
        for (Object example : List.of(failure.minimalExample(), failure.originalExample())) {
            try {
                unmutatedCheck.accept((W) example);
            } catch (AssertionError e) {
                throw new AssertionError("the code without the plant fails the world that caught the plant too, so "
                        + "the catch proves nothing about the checker: " + example, e);
            }
        }
    }
}
