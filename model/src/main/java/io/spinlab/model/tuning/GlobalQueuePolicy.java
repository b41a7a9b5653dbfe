package io.spinlab.model.tuning;

/** The thread pool's global queue (knob {@code global-queue}). */
public enum GlobalQueuePolicy {
    /**
     * .NET Core 1.x (before dotnet/coreclr #9234, Feb 2017): linked 256-slot segments with the
     * enqueue and dequeue indices packed 16/16 in one int.
     */
    QUEUE_SEGMENT,
    /** Since .NET Core 2.0 (dotnet/coreclr #9234): the segmented ConcurrentQueue. */
    CONCURRENT_QUEUE
}
