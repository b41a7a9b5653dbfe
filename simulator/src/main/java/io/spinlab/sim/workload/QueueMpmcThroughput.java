package io.spinlab.sim.workload;

import io.spinlab.impl.collections.ConcurrentFifo;
import io.spinlab.impl.collections.ConcurrentQueue;
import io.spinlab.impl.collections.QueueSegmentQueue;
import io.spinlab.impl.event.ManualResetEvent;
import io.spinlab.impl.spin.SpinContext;
import io.spinlab.model.platform.Platform;
import io.spinlab.model.tuning.GlobalQueuePolicy;

import java.util.concurrent.TimeUnit;

/**
 * The thread pool's global queue under multi-producer multi-consumer load: P producers each
 * offer N items as fast as they can while C consumers poll until each has taken its share
 * (spinning one PAUSE on an empty poll). The queue is the one the tuning's
 * {@code global-queue} knob selects: {@link QueueSegmentQueue} ({@code queue-segment}, before
 * dotnet/coreclr #9234) or {@link ConcurrentQueue} ({@code concurrent-queue}). Score: items
 * moved per ms, from the first worker's start to the last worker's end.
 *
 * <p>Its result hinges on cache-line contention — one packed index word that every producer
 * and consumer CASes, against a head and a tail on lines of their own — so only a simulation
 * with the memory model on can tell the two queues apart.
 */
public final class QueueMpmcThroughput implements Workload {
    /*
     * Implementation notes
     *
     * Workers wait on a ManualResetEvent so that they start together, and time themselves
     * (first and last platform clock read) into arrays that only they write; main reads them
     * after the join, which the WorkerGroup's countdown orders. Every item is the same token
     * object: nothing is allocated per item, so both queues pay only for their own structure.
     */

    private static final long JOIN_TIMEOUT_SECONDS = 600;
    private static final Object ITEM = new Object();

    private final int producers;
    private final int consumers;
    private final int itemsPerProducer;

    /**
     * @param producers        producing threads, at least 1
     * @param consumers        consuming threads, at least 1
     * @param itemsPerProducer items each producer offers, at least 1
     */
    public QueueMpmcThroughput(int producers, int consumers, int itemsPerProducer) {
        if (producers < 1 || consumers < 1 || itemsPerProducer < 1) {
            throw new IllegalArgumentException("producers = " + producers + ", consumers = " + consumers
                    + ", itemsPerProducer = " + itemsPerProducer + "; allowed 1 or more each");
        }
        this.producers = producers;
        this.consumers = consumers;
        this.itemsPerProducer = itemsPerProducer;
    }

    @Override
    public String name() {
        return "queue-mpmc";
    }

    @Override
    public String parameters() {
        return "producers=" + producers + ",consumers=" + consumers + ",items=" + itemsPerProducer;
    }

    @Override
    public WorkloadResult run(SpinContext context) throws InterruptedException {
        Platform platform = context.platform();
        ConcurrentFifo<Object> queue = context.tuning().globalQueue() == GlobalQueuePolicy.QUEUE_SEGMENT
                ? new QueueSegmentQueue<>(context) : new ConcurrentQueue<>(context);
        long total = (long) producers * itemsPerProducer;
        int workers = producers + consumers;
        long[] begin = new long[workers];
        long[] end = new long[workers];
        ManualResetEvent start = new ManualResetEvent(context);
        WorkerGroup group = new WorkerGroup(context, workers);
        for (int p = 0; p < producers; p++) {
            int index = p;
            group.start("producer-" + p, () -> {
                start.await();
                begin[index] = platform.nanoTime();
                for (int i = 0; i < itemsPerProducer; i++) {
                    queue.offer(ITEM);
                }
                end[index] = platform.nanoTime();
            });
        }
        for (int c = 0; c < consumers; c++) {
            int index = producers + c;
            long share = total / consumers + (c < total % consumers ? 1 : 0);
            group.start("consumer-" + c, () -> {
                start.await();
                begin[index] = platform.nanoTime();
                for (long taken = 0; taken < share; ) {
                    if (queue.poll() != null) {
                        taken++;
                    } else {
                        platform.pause(1);
                    }
                }
                end[index] = platform.nanoTime();
            });
        }
        start.set();
        group.join(JOIN_TIMEOUT_SECONDS, TimeUnit.SECONDS);
        if (!queue.isEmpty()) {
            throw new IllegalStateException("items left in the queue after every consumer took its share");
        }
        long first = Long.MAX_VALUE;
        long last = Long.MIN_VALUE;
        for (int w = 0; w < workers; w++) {
            first = Math.min(first, begin[w]);
            last = Math.max(last, end[w]);
        }
        return new WorkloadResult(name(), parameters(), platform.toString(), total, last - first);
    }

    @Override
    public String toString() {
        return describe();
    }
}
