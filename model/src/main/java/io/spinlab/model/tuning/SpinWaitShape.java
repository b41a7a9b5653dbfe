package io.spinlab.model.tuning;

/** The iteration schedule of {@code SpinWait.SpinOnce} (knob {@code spinwait}). */
public enum SpinWaitShape {
    /**
     * .NET Core 2.0 ({@code SpinWait.cs} before dotnet/coreclr #13670): counts 0–10 spin
     * {@code Thread.SpinWait(4 << count)} (4 … 4,096; {@code NextSpinWillYield} is {@code count > 10});
     * from count 11 every iteration yields, a Sleep(1) every 20th and a Sleep(0) every 5th.
     */
    EXPONENTIAL,
    /**
     * Since dotnet/coreclr #13670: counts 0–9 spin {@code min(2^count, OptimalMaxSpinWaitsPerSpinIteration)};
     * from count 10 yields and spins alternate, every 5th yield a Sleep(0), and from the Sleep(1)
     * threshold on every iteration sleeps 1 ms.
     */
    CAPPED
}
