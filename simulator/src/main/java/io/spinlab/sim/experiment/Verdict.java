package io.spinlab.sim.experiment;

/** How a simulated row compares with what was published about it. */
public enum Verdict {
    /** The simulated direction is the published one. */
    AGREES,
    /** The simulated direction contradicts the published one (a finding to explain, never to tune away). */
    DISAGREES,
    /** Nothing was published about this row. */
    NO_CLAIM,
    /** A simulated run did not complete (deadlock, budget, failure); the row's failure says why. */
    FAILED
}
