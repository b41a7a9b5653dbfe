package io.spinlab.model.tuning;

/**
 * What CoreCLR's native spin lock ({@code SpinLock::SpinToAcquire}, {@code src/vm/spinlock.cpp}) does
 * on each of its up to 10,000 polls between two {@code SwitchToThread} calls (knob
 * {@code native-spinlock}). EventPipe's buffer-manager lock is that lock on CoreCLR.
 */
public enum NativeSpinLockPolicy {
    /**
     * .NET Core 2.0 and 2.1: poll the lock word, then one raw {@code YieldProcessor()} if it was held
     * (dotnet/coreclr {@code src/vm/spinlock.cpp} @ a1b757c7, the parent of coreclr #21586).
     */
    RAW,
    /**
     * .NET Core 3.0 and later (dotnet/coreclr #21586, commit 3621a2a1): one
     * {@code YieldProcessorNormalized} (about 37 ns on any CPU), then poll.
     */
    NORMALIZED
}
