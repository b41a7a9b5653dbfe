package io.spinlab.properties.sim;

import io.spinlab.model.machine.MachineProfile;
import io.spinlab.model.tuning.GlobalQueuePolicy;
import io.spinlab.model.tuning.Knob;
import io.spinlab.sim.engine.Faults;

import java.util.ArrayList;
import java.util.List;

/**
 * One generated thread-pool world: the machine, the pool's settings and tuning, and a schedule —
 * what each external submitter submits (work items, some of which submit more work from inside,
 * to their worker's local queue or to the global one) and when the pool is shut down. Plain values
 * and records of this package only, so that it crosses into the guest class loader unchanged.
 *
 * @param faults            what the simulator injects: spurious and delayed wake-ups, preemption, jitter
 * @param perItemRequests   the pool's thread requests: one per item (every generation modelled) or
 *                          cascading (later .NET, a what-if); independent of {@code globalQueue}
 * @param minWorkers        the pool's busy-worker target
 * @param maxWorkers        the most workers starvation injection may add
 * @param idleTimeoutNanos  idle time after which a worker exits
 * @param gateIntervalNanos period of the starvation check
 * @param submitters        per external submitter, the items it submits, in order
 * @param shutdownBy        the submitter that shuts the pool down, or -1: the controller, once every
 *                          submitter is done
 * @param shutdownAfter     how many of its items {@code shutdownBy} submits first
 * @param shutdownDelayNanos how long the controller sleeps, once every submitter is done, before it
 *                          shuts the pool down (whoever shut it down before)
 * @param shutdownNow       {@code shutdownNow()} (queued items returned) instead of {@code shutdown()}
 * @param plant             a deliberate bug in the test's submitter, to show the check can fail
 */
public record PoolWorld(MachineProfile machine, boolean memoryModel, long seed, Faults faults,
                        GlobalQueuePolicy globalQueue,
                        boolean perItemRequests, int minWorkers, int maxWorkers, long idleTimeoutNanos,
                        long gateIntervalNanos, List<List<Item>> submitters, int shutdownBy, int shutdownAfter,
                        long shutdownDelayNanos, boolean shutdownNow, Plant plant) {

    /** A bug planted in the test's submitter (not in the pool). */
    public enum Plant {
        /** No bug. */
        NONE,
        /** The first submitter submits its first item twice, recording it once. */
        SUBMIT_FIRST_ITEM_TWICE
    }

    /**
     * A work item.
     *
     * @param id           its index among all items of the world (pre-order, submitters in order)
     * @param pausesBefore PAUSEs its submitter spends before submitting it
     * @param workPauses   PAUSEs it runs for, after submitting its children (which wait in the queue
     *                     meanwhile, for another worker to steal)
     * @param fails        it throws at the end
     * @param global       submitted with {@code executeGlobal}; else {@code execute} (a worker's
     *                     local queue when submitted from inside an item)
     * @param children     items it submits while it runs
     */
    public record Item(int id, int pausesBefore, int workPauses, boolean fails, boolean global, List<Item> children) {

        /** The same item numbered from {@code next[0]} on, pre-order. */
        Item numbered(int[] next) {
            int own = next[0]++;
            List<Item> numberedChildren = new ArrayList<>(children.size());
            for (Item child : children) {
                numberedChildren.add(child.numbered(next));
            }
            return new Item(own, pausesBefore, workPauses, fails, global, List.copyOf(numberedChildren));
        }

        @Override
        public String toString() {
            StringBuilder text = new StringBuilder("#").append(id);
            if (pausesBefore > 0) {
                text.append(" after ").append(pausesBefore);
            }
            text.append(global ? " global" : " local").append(" work ").append(workPauses);
            if (fails) {
                text.append(" throws");
            }
            if (!children.isEmpty()) {
                text.append(' ').append(children);
            }
            return text.toString();
        }
    }

    /** The world with items numbered 0, 1, 2, … (pre-order, submitters in order). */
    public PoolWorld numbered() {
        int[] next = {0};
        List<List<Item>> numbered = new ArrayList<>();
        for (List<Item> items : submitters) {
            List<Item> copy = new ArrayList<>();
            for (Item item : items) {
                copy.add(item.numbered(next));
            }
            numbered.add(List.copyOf(copy));
        }
        return new PoolWorld(machine, memoryModel, seed, faults, globalQueue, perItemRequests, minWorkers, maxWorkers,
                idleTimeoutNanos, gateIntervalNanos, List.copyOf(numbered), shutdownBy, shutdownAfter,
                shutdownDelayNanos, shutdownNow, plant);
    }

    /** How many items the world holds, nested ones included. */
    public int itemCount() {
        int[] count = {0};
        submitters.forEach(items -> items.forEach(item -> count(item, count)));
        return count[0];
    }

    private static void count(Item item, int[] count) {
        count[0]++;
        item.children().forEach(child -> count(child, count));
    }

    /** This world with the memory model and the global queue set. */
    public PoolWorld withMemoryModelAndQueue(boolean newMemoryModel, GlobalQueuePolicy newQueue) {
        return new PoolWorld(machine, newMemoryModel, seed, faults, newQueue, perItemRequests, minWorkers,
                maxWorkers, idleTimeoutNanos, gateIntervalNanos, submitters, shutdownBy, shutdownAfter,
                shutdownDelayNanos, shutdownNow, plant);
    }

    /**
     * This world with the starvation gate looking only once an hour, far past the scenario's wait for
     * termination: whatever runs, the request protocol alone made it run.
     */
    public PoolWorld withoutGate() {
        return new PoolWorld(machine, memoryModel, seed, faults, globalQueue, perItemRequests, minWorkers, maxWorkers,
                idleTimeoutNanos, GATE_OFF_NANOS, submitters, shutdownBy, shutdownAfter, shutdownDelayNanos,
                shutdownNow, plant);
    }

    /** This world with the cascading thread-request scheme ({@code perItemRequests} false). */
    public PoolWorld withCascadingRequests() {
        return new PoolWorld(machine, memoryModel, seed, faults, globalQueue, false, minWorkers, maxWorkers,
                idleTimeoutNanos, gateIntervalNanos, submitters, shutdownBy, shutdownAfter, shutdownDelayNanos,
                shutdownNow, plant);
    }

    /**
     * This world with its shutdown a {@code shutdownNow()} by a submitter part-way through its items (by the
     * first submitter where the controller shut down at the end): the schedules in which a worker may
     * still hold an item it took before the queues were drained.
     */
    public PoolWorld withShutdownNowBySubmitter() {
        return new PoolWorld(machine, memoryModel, seed, faults, globalQueue, perItemRequests, minWorkers, maxWorkers,
                idleTimeoutNanos, gateIntervalNanos, submitters, Math.max(0, shutdownBy), shutdownAfter,
                shutdownDelayNanos, true, plant);
    }

    /** The gate interval of {@link #withoutGate}: one hour. */
    public static final long GATE_OFF_NANOS = 3_600_000_000_000L;

    /** The world with another plant. */
    public PoolWorld withPlant(Plant newPlant) {
        return new PoolWorld(machine, memoryModel, seed, faults, globalQueue, perItemRequests, minWorkers, maxWorkers,
                idleTimeoutNanos, gateIntervalNanos, submitters, shutdownBy, shutdownAfter, shutdownDelayNanos,
                shutdownNow, newPlant);
    }

    @Override
    public String toString() {
        StringBuilder text = new StringBuilder();
        text.append("machine=").append(machine.name()).append(" memory=").append(memoryModel ? "on" : "off")
                .append(" seed=").append(seed).append(" faults=").append(faults.describe()).append(' ')
                .append(Knob.GLOBAL_QUEUE.knobName()).append('=').append(Knob.nameOf(globalQueue))
                .append(" requests=").append(perItemRequests ? "per-item" : "cascading")
                .append(" workers=").append(minWorkers).append("..").append(maxWorkers).append(" idleTimeout=")
                .append(idleTimeoutNanos).append("ns gate=").append(gateIntervalNanos).append("ns shutdown")
                .append(shutdownNow ? "Now" : "").append(shutdownBy < 0 ? " at the end"
                        : " by submitter " + shutdownBy + " after " + shutdownAfter + " item(s)")
                .append(shutdownDelayNanos > 0 ? ", the controller's " + shutdownDelayNanos + "ns later" : "");
        if (plant != Plant.NONE) {
            text.append(" plant=").append(plant);
        }
        for (int s = 0; s < submitters.size(); s++) {
            text.append("\n    submitter ").append(s).append(": ").append(submitters.get(s));
        }
        return text.toString();
    }
}
