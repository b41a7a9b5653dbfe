package io.spinlab.impl.spin;

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

    /** Publishes a new measurement (a volatile write: readers see all of it or none). */
    final void publish(Calibration measured) {
        calibration = measured;
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
