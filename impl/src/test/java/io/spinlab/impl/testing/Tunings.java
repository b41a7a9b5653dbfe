package io.spinlab.impl.testing;

import io.spinlab.impl.platform.HardwarePlatform;
import io.spinlab.impl.spin.SpinContext;
import io.spinlab.model.tuning.Generation;
import io.spinlab.model.tuning.Tuning;

import java.util.Arrays;

import java.util.stream.Stream;

/** The tunings every blocking-protocol test runs under. */
public final class Tunings {
    private Tunings() {
    }

    /**
     * Every generation with distinct knobs, and the what-ifs the experiments and users run: no
     * spin, the convoy Monitor under today's other heuristics, and SemaphoreSlim's lock-free fast
     * paths (no generation has them; the generations cover {@code until-yield} and {@code spinonce}).
     */
    public static Stream<Tuning> all() {
        Stream<Tuning> generations = Arrays.stream(Generation.values()).map(Generation::tuning).distinct();
        return Stream.concat(generations, Stream.of(Tuning.parse("current,spin=none"),
                Tuning.parse("current,monitor=convoy"), Tuning.parse("current,semaphore=lock-free")));
    }

    /** A hardware context for a tuning. */
    public static SpinContext hardware(Tuning tuning) {
        return SpinContext.of(HardwarePlatform.INSTANCE, tuning);
    }
}
