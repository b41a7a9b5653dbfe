/**
 * EventPipe's buffer manager: per-writer buffers under a global limit, with the reservation
 * against that limit done under the manager's lock ({@code reservation=under-lock}, before
 * dotnet/runtime #50797) or with a lock-free CAS loop ({@code lockless}, after), a reader that
 * drains concurrently in timestamp order.
 *
 * <p>Start at {@link io.spinlab.impl.buffer.EventBufferManager}. Writers are
 * {@link io.spinlab.impl.buffer.EventWriter}s, the reader is the
 * {@link io.spinlab.impl.buffer.EventReader}, sizes are a
 * {@link io.spinlab.impl.buffer.BufferManagerConfig}. The published stress shape is the simulator's
 * {@code eventpipe-stress} workload ({@code ./spinlab run --workload eventpipe-stress [--hardware]}).
 */
package io.spinlab.impl.buffer;
