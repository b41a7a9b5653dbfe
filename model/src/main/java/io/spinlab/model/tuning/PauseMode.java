package io.spinlab.model.tuning;

/**
 * What {@code Thread.SpinWait(n)} means on the runtime being modelled (knob {@code pause}): how a
 * count of spin iterations becomes PAUSE instructions, and where the spin-iteration cap
 * ({@code OptimalMaxSpinWaitsPerSpinIteration}) comes from.
 */
public enum PauseMode {
    /**
     * n raw PAUSE instructions: CoreCLR before dotnet/coreclr #13670 and CoreRT before
     * dotnet/corert #7569. The cap is CoreRT's constant 64 ({@code Thread.CoreRT.cs}).
     */
    RAW,
    /**
     * dotnet/corert #7569: every count n goes through {@code YieldProcessorNormalizedForPreSkylakeCount},
     * max(1, n × yields-per-normalized-yield / 8) PAUSEs, the PAUSE measured once at start-up; the cap
     * stays the constant 64.
     */
    PRESKYLAKE_SCALED,
    /**
     * .NET Core 2.1 to .NET 5: n normalized yields of about 37 ns, the PAUSE measured once, for 10 ms,
     * at start-up (dotnet/coreclr #13670, #14058); the cap is the measured ~272 ns.
     */
    NORMALIZED_ONCE,
    /**
     * .NET 6 and later: n normalized yields, the PAUSE re-sampled in short bursts at most every few
     * seconds (dotnet/runtime #55295).
     */
    NORMALIZED;

    /** True when counts are normalized yields of a measured PAUSE. */
    public boolean normalizedYields() {
        return this == NORMALIZED_ONCE || this == NORMALIZED;
    }
}
