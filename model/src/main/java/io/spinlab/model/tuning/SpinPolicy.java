package io.spinlab.model.tuning;

/** The spin phase before a ManualResetEvent or Task blocks (knob {@code spin}). */
public enum SpinPolicy {
    /** .NET Core 2.0: {@code SpinWait(ProcessorCount × (4 << i))} for i below 10, a yield at i = 5. */
    PROC_SCALED,
    /** The same loop without the processor-count multiply (dotnet/coreclr #13556, ported to 2.0 as #13631). */
    UNSCALED,
    /** Since .NET Core 2.1: 35 × {@code SpinWait.SpinOnce(sleep1Threshold: -1)}. */
    SPINONCE,
    /** No spinning: block at once. No generation's default (a .NET caller can pass spinCount 0). */
    NONE
}
