package io.spinlab.properties.sim;

import io.spinlab.model.machine.MachineProfile;
import io.spinlab.sim.engine.Faults;

/**
 * A few threads moving items through one concurrent collection: {@code producers} threads each
 * add {@code itemsPerProducer} distinct items, {@code consumers} threads take items until every item
 * has been taken, pausing {@code gapPauses} PAUSEs between operations and yielding the processor
 * when they find nothing.
 * Segments (or the work-stealing array) start at {@code capacity} slots, so that they fill, freeze,
 * link and grow while the others work. With {@code observer}, one more thread reads the collection's
 * size and (where it has one) a snapshot, over and over, until every item has been taken.
 *
 * <p>For a work-stealing queue the producers are one owner, which pushes all its items, popping one
 * after every {@code ownerPopEvery} pushes (0: never) and then pops until the queue is empty; the
 * consumers are thieves.
 */
public record CollectionWorld(Kind kind, MachineProfile machine, int producers, int consumers, int itemsPerProducer,
                              int capacity, int gapPauses, int ownerPopEvery, boolean observer, long seed,
                              Faults faults) {

    /** The collection under test. */
    public enum Kind {
        CONCURRENT_QUEUE, QUEUE_SEGMENT_QUEUE, CONCURRENT_STACK, WORK_STEALING_QUEUE
    }

    /** Every item added in the run. */
    public int items() {
        return producers * itemsPerProducer;
    }

    @Override
    public String toString() {
        return "collection=" + kind + " machine=" + machine.name() + " producers=" + producers + " consumers="
                + consumers + " items=" + itemsPerProducer + " capacity=" + capacity + " gap=" + gapPauses
                + (kind == Kind.WORK_STEALING_QUEUE ? " ownerPopEvery=" + ownerPopEvery : "") + " observer="
                + observer + " seed=" + seed + " faults=" + faults;
    }
}
