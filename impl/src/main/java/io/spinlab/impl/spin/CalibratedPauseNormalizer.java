package io.spinlab.impl.spin;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * What both measurement schemes share: the published {@link Calibration}, read through one
 * volatile field, and the accessors derived from it. Subclasses decide when and how to measure.
 */
abstract class CalibratedPauseNormalizer implements PauseNormalizer {

    private final String scheme;
    private volatile Calibration calibration = Calibration.DEFAULT;

    CalibratedPauseNormalizer(String scheme) {
        this.scheme = scheme;
    }

    final Calibration calibration() {
        return calibration;
    }

    /**
     * Publishes a new measurement: a release store (.NET: plain stores of the globals), so a
     * reader sees all of the immutable record or the one before.
     */
    final void publish(Calibration measured) {
        CALIBRATION.setRelease(this, measured);
    }

    private static final VarHandle CALIBRATION;

    static {
        try {
            CALIBRATION = MethodHandles.lookup().findVarHandle(CalibratedPauseNormalizer.class, "calibration",
                    Calibration.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    @Override
    public final int yieldsPerNormalizedYield() {
        return calibration.yieldsPerNormalizedYield();
    }

    @Override
    public final int optimalMaxNormalizedYieldsPerSpinIteration() {
        return calibration.optimalMaxNormalizedYieldsPerSpinIteration();
    }

    @Override
    public final double nsPerPause() {
        return calibration.nsPerPause();
    }

    @Override
    public String toString() {
        Calibration c = calibration;
        return scheme + "(" + (c.measured() ? c.nsPerPause() + " ns/PAUSE" : "unmeasured") + ", yields="
                + c.yieldsPerNormalizedYield() + ", optimalMax=" + c.optimalMaxNormalizedYieldsPerSpinIteration() + ")";
    }
}
