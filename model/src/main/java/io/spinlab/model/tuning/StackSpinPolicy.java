package io.spinlab.model.tuning;

/**
 * What a ConcurrentStack push or pop that lost its CAS does between retries (knob
 * {@code stack-spin}).
 */
public enum StackSpinPolicy {
    /** .NET Core 2.x: {@code SpinOnce()}, so Sleep(1) from the 20th consecutive lost CAS. */
    SLEEP_AT_20(20),
    /**
     * Since .NET Core 3.0 (dotnet/corefx #34288, the counterpart of coreclr #21722):
     * {@code SpinOnce(sleep1Threshold: -1)} in push and pop, never Sleep(1).
     */
    NO_SLEEP(-1);

    private final int sleep1Threshold;

    StackSpinPolicy(int sleep1Threshold) {
        this.sleep1Threshold = sleep1Threshold;
    }

    /** The argument push and pop pass to {@code SpinOnce(int)} (−1: never Sleep(1)). */
    public int sleep1Threshold() {
        return sleep1Threshold;
    }
}
