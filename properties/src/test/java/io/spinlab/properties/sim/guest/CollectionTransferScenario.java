package io.spinlab.properties.sim.guest;

import io.spinlab.impl.collections.ConcurrentQueue;
import io.spinlab.impl.collections.ConcurrentStack;
import io.spinlab.impl.collections.QueueSegmentQueue;
import io.spinlab.impl.collections.WorkStealingQueue;
import io.spinlab.impl.spin.SpinContext;
import io.spinlab.model.platform.Platform;
import io.spinlab.model.tuning.Tuning;
import io.spinlab.properties.sim.CollectionWorld;
import io.spinlab.properties.sim.SimScenario;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;

/**
 * A {@link CollectionWorld} run. Item {@code p × itemsPerProducer + i} is producer p's i-th. It
 * observes how often each item was taken, and the violations it saw: a FIFO queue that gave one
 * consumer two items of one producer out of order, a size outside 0..items, a snapshot that holds an
 * item twice, a producer's items out of order, or an item never added. Threads run one at a time in
 * the simulator, so plain fields are enough here.
 */
public final class CollectionTransferScenario implements SimScenario<int[]> {

    public static final int OUT_OF_ORDER = 0;
    public static final int SIZE_OUT_OF_RANGE = 1;
    public static final int BAD_SNAPSHOT = 2;
    public static final int UNKNOWN_ITEM = 3;
    public static final int THREADS_DONE = 4;
    private static final int COUNTERS = 5;

    private final CollectionWorld world;
    private final int[] taken;
    private final int[] counters = new int[COUNTERS];
    private int takenSoFar;

    public CollectionTransferScenario(CollectionWorld world) {
        this.world = world;
        this.taken = new int[world.items()];
    }

    /** The operations the scenario needs of each collection. */
    private interface Target {
        void add(Integer item, int producer, int index);

        /** Takes an item, or null; {@code owner}: the calling thread is a producer (a work-stealing queue's owner). */
        Integer take(boolean owner);

        int size();

        /** A snapshot in the collection's order, or null if it has none. */
        List<Integer> snapshot();

        boolean fifo();
    }

    @Override
    public void start(Platform platform, Tuning tuning) {
        platform.startThread("main", () -> run(platform, tuning));
    }

    private void run(Platform platform, Tuning tuning) {
        SpinContext context = SpinContext.of(platform, tuning);
        Target target = target(context);
        for (int p = 0; p < world.producers(); p++) {
            int producer = p;
            platform.startThread("producer-" + p, () -> {
                for (int i = 0; i < world.itemsPerProducer(); i++) {
                    target.add(producer * world.itemsPerProducer() + i, producer, i);
                    platform.pause(world.gapPauses());
                }
                if (world.kind() == CollectionWorld.Kind.WORK_STEALING_QUEUE) {
                    drainAsOwner(platform, target);
                }
                counters[THREADS_DONE]++;
            });
        }
        for (int c = 0; c < world.consumers(); c++) {
            platform.startThread("consumer-" + c, () -> {
                int[] lastOfProducer = new int[world.producers()];
                java.util.Arrays.fill(lastOfProducer, -1);
                while (takenSoFar < world.items()) {
                    Integer item = target.take(false);
                    if (item == null) {
                        platform.yieldThread();
                        continue;
                    }
                    int index = record(item);
                    if (index >= 0 && target.fifo()) {
                        int producer = item / world.itemsPerProducer();
                        if (index <= lastOfProducer[producer]) {
                            counters[OUT_OF_ORDER]++;
                        }
                        lastOfProducer[producer] = index;
                    }
                    platform.pause(world.gapPauses());
                }
                counters[THREADS_DONE]++;
            });
        }
        if (world.observer()) {
            platform.startThread("observer", () -> {
                while (takenSoFar < world.items()) {
                    int size = target.size();
                    if (size < 0 || size > world.items()) {
                        counters[SIZE_OUT_OF_RANGE]++;
                    }
                    List<Integer> snapshot = target.snapshot();
                    if (snapshot != null) {
                        checkSnapshot(snapshot, target.fifo());
                    }
                    platform.pause(world.gapPauses());
                    platform.yieldThread();
                }
                counters[THREADS_DONE]++;
            });
        }
    }

    /** The owner of a work-stealing queue pops what the thieves left. */
    private void drainAsOwner(Platform platform, Target target) {
        while (takenSoFar < world.items()) {
            Integer item = target.take(true);
            if (item == null) {
                platform.yieldThread();
                continue;
            }
            record(item);
        }
    }

    /** Counts {@code item} taken; its index within its producer, or −1 if no such item was added. */
    private int record(Integer item) {
        if (item < 0 || item >= taken.length) {
            counters[UNKNOWN_ITEM]++;
            return -1;
        }
        taken[item]++;
        takenSoFar++;
        return item % world.itemsPerProducer();
    }

    private void checkSnapshot(List<Integer> snapshot, boolean fifo) {
        boolean[] seen = new boolean[world.items()];
        int[] last = new int[world.producers()];
        java.util.Arrays.fill(last, fifo ? -1 : Integer.MAX_VALUE);
        for (Integer item : snapshot) {
            if (item == null || item < 0 || item >= seen.length || seen[item]) {
                counters[BAD_SNAPSHOT]++;
                return;
            }
            seen[item] = true;
            int producer = item / world.itemsPerProducer();
            int index = item % world.itemsPerProducer();
            if (fifo ? index <= last[producer] : index >= last[producer]) {
                counters[BAD_SNAPSHOT]++;
                return;
            }
            last[producer] = index;
        }
    }

    private Target target(SpinContext context) {
        return switch (world.kind()) {
            case CONCURRENT_QUEUE -> {
                ConcurrentQueue<Integer> queue = new ConcurrentQueue<>(context, world.capacity());
                yield new Target() {
                    public void add(Integer item, int producer, int index) {
                        queue.offer(item);
                    }

                    public Integer take(boolean owner) {
                        return queue.poll();
                    }

                    public int size() {
                        return queue.size();
                    }

                    public List<Integer> snapshot() {
                        List<Integer> items = new ArrayList<>();
                        for (Iterator<Integer> it = queue.iterator(); it.hasNext(); ) {
                            items.add(it.next());
                        }
                        Integer head = queue.peek();
                        if (head != null && (head < 0 || head >= taken.length)) {
                            counters[UNKNOWN_ITEM]++;
                        }
                        return items;
                    }

                    public boolean fifo() {
                        return true;
                    }
                };
            }
            case QUEUE_SEGMENT_QUEUE -> {
                QueueSegmentQueue<Integer> queue = new QueueSegmentQueue<>(context, world.capacity());
                yield new Target() {
                    public void add(Integer item, int producer, int index) {
                        queue.offer(item);
                    }

                    public Integer take(boolean owner) {
                        return queue.poll();
                    }

                    public int size() {
                        return queue.size();
                    }

                    public List<Integer> snapshot() {
                        return null;
                    }

                    public boolean fifo() {
                        return true;
                    }
                };
            }
            case CONCURRENT_STACK -> {
                ConcurrentStack<Integer> stack = new ConcurrentStack<>(context);
                yield new Target() {
                    private final Integer[] pending = new Integer[world.producers()];

                    public void add(Integer item, int producer, int index) {
                        // A producer's even items wait for the next one and go in with it, through pushRange.
                        if (index % 2 == 0 && index + 1 < world.itemsPerProducer()) {
                            pending[producer] = item;
                            return;
                        }
                        if (pending[producer] != null) {
                            stack.pushRange(List.of(pending[producer], item));
                            pending[producer] = null;
                        } else {
                            stack.push(item);
                        }
                    }

                    public Integer take(boolean owner) {
                        if (takenSoFar % 2 == 0) {
                            List<Integer> popped = stack.popRange(2);
                            if (popped.isEmpty()) {
                                return null;
                            }
                            for (int i = 1; i < popped.size(); i++) {
                                record(popped.get(i));
                            }
                            return popped.getFirst();
                        }
                        return stack.pop();
                    }

                    public int size() {
                        return stack.size();
                    }

                    public List<Integer> snapshot() {
                        return stack.toList();
                    }

                    public boolean fifo() {
                        return false;
                    }
                };
            }
            case WORK_STEALING_QUEUE -> {
                WorkStealingQueue<Integer> queue = new WorkStealingQueue<>(context, world.capacity());
                yield new Target() {
                    private int pushes;

                    public void add(Integer item, int producer, int index) {
                        queue.push(item);
                        pushes++;
                        if (world.ownerPopEvery() > 0 && pushes % world.ownerPopEvery() == 0) {
                            Integer popped = queue.pop();
                            if (popped != null) {
                                record(popped);
                            }
                        }
                    }

                    public Integer take(boolean owner) {
                        return owner ? queue.pop() : queue.trySteal();
                    }

                    public int size() {
                        return queue.size();
                    }

                    public List<Integer> snapshot() {
                        return null;
                    }

                    public boolean fifo() {
                        return false;
                    }
                };
            }
        };
    }

    /** Per item how often it was taken, then the five counters. */
    @Override
    public int[] observed() {
        int[] observation = java.util.Arrays.copyOf(taken, taken.length + COUNTERS);
        System.arraycopy(counters, 0, observation, taken.length, COUNTERS);
        return observation;
    }
}
