package io.spinlab.impl.testing;

import io.spinlab.impl.platform.HardwarePlatform;
import io.spinlab.impl.spin.SpinContext;
import io.spinlab.model.tuning.Tuning;

import java.util.stream.Stream;

/** The tunings every blocking-protocol test runs under. */
public final class Tunings {
    private Tunings() {
    }

    /** Legacy, current, and the variants the published experiments compare. */
    public static Stream<Tuning> all() {
        return Stream.of(Tuning.legacy(), Tuning.current(), Tuning.parse("current,spin=unscaled,pause=raw"),
                Tuning.parse("current,spin=none"), Tuning.parse("current,monitor=convoy"));
    }

    /** A hardware context for a tuning. */
    public static SpinContext hardware(Tuning tuning) {
        return SpinContext.of(HardwarePlatform.INSTANCE, tuning);
    }
}
