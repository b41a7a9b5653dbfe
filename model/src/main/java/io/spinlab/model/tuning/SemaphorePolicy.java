package io.spinlab.model.tuning;

/** SemaphoreSlim's spin before it blocks and how it takes its lock (knob {@code semaphore}). */
public enum SemaphorePolicy {
    /**
     * .NET Core 2.0 (before dotnet/coreclr #13670): {@code SpinOnce} until {@code NextSpinWillYield}
     * (no yields), then the Monitor on every {@code Wait}; every {@code Release} under the Monitor.
     */
    UNTIL_YIELD,
    /**
     * .NET Core 2.1 and later (coreclr #13670, #18204): 140 {@code SpinOnce} iterations that never
     * sleep, then the Monitor on every {@code Wait}; every {@code Release} under the Monitor.
     */
    SPINONCE,
    /**
     * No runtime: the {@code spinonce} spin with lock-free {@code Wait} and {@code Release} fast
     * paths (one CAS each while nobody waits). Kept as a what-if of a cheaper primitive.
     */
    LOCK_FREE
}
