package io.spinlab.model.tuning;

/** The thread pool's global queue (knob {@code global-queue}). */
public enum GlobalQueuePolicy {
    /** Legacy: linked 256-slot segments with enqueue/dequeue indices packed 16/16 in one int. */
    QUEUE_SEGMENT,
    /** Since dotnet/coreclr #9234: the segmented ConcurrentQueue. */
    CONCURRENT_QUEUE
}
