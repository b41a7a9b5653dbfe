package io.spinlab.model.tuning;

/**
 * What a ConcurrentQueue segment operation that lost a race does before it retries (knob
 * {@code queue-spin}): one {@code SpinWait.SpinOnce} with a Sleep(1) threshold that .NET changed
 * twice.
 */
public enum QueueSpinPolicy {
    /** .NET Core 2.x: {@code SpinOnce()}, so Sleep(1) from the 20th consecutive lost race. */
    SLEEP_AT_20(20),
    /**
     * .NET Core 3.0 to .NET 5 (dotnet/coreclr #21722 "Don't Sleep(1) in some spin-wait loops"):
     * {@code SpinOnce(sleep1Threshold: -1)}, never Sleep(1).
     */
    NO_SLEEP(-1),
    /**
     * .NET 6 (dotnet/runtime #44265, issue #44077): {@code SpinOnce(Sleep1Threshold)} with the
     * segment's constant 8, which SpinWait raises to its minimum of 10: Sleep(1) from the 10th.
     */
    SLEEP_AT_10(8);

    private final int sleep1Threshold;

    QueueSpinPolicy(int sleep1Threshold) {
        this.sleep1Threshold = sleep1Threshold;
    }

    /** The argument the segment passes to {@code SpinOnce(int)} (−1: never Sleep(1)). */
    public int sleep1Threshold() {
        return sleep1Threshold;
    }
}
