package io.spinlab.model.tuning;

/** What a spin count means (knob {@code pause}). */
public enum PauseMode {
    /** Counts are raw PAUSE instructions, tuned for a ~10-cycle PAUSE (before dotnet/coreclr #13670). */
    RAW,
    /** Counts are normalized yields of ~37 ns, the PAUSE cost measured at run time. */
    NORMALIZED
}
