package io.spinlab.model.tuning;

/** How the thread pool's queued work asks for workers (knob {@code thread-requests}). */
public enum ThreadRequestPolicy {
    /**
     * .NET Core 2.0 to .NET 6 (coreclr {@code ThreadPool.cs}, {@code EnsureThreadRequested} with
     * {@code numOutstandingThreadRequests}, capped at the processor count since coreclr #13431):
     * one request per queued item while fewer than the processor count are outstanding.
     */
    PER_ITEM,
    /**
     * .NET 9 (dotnet/runtime #100506, {@code QueueProcessingStage} in {@code ThreadPoolWorkQueue.cs}
     * @ 003a8322): at most one outstanding request, which each woken worker passes on when it finds
     * more work. No generation spinlab models ships it; kept as a what-if.
     */
    CASCADING
}
