package io.spinlab.properties.lincheck;

import org.junit.jupiter.api.Timeout;
import java.util.concurrent.TimeUnit;

import io.spinlab.model.spec.ConcurrentQueueSpec;
import io.spinlab.model.spec.StackSpec;
import io.spinlab.model.spec.WorkStealingQueueSpec;
import org.jetbrains.lincheck.datastructures.IntGen;
import org.jetbrains.lincheck.datastructures.Operation;
import org.jetbrains.lincheck.datastructures.Param;
import org.junit.jupiter.api.Test;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The checks have teeth: each structure's characteristic bug, planted in a small copy of its
 * algorithm, is caught by the same model-checking options and budget the real structures pass
 * with. If one of these stops failing, the corresponding linearizability test proves nothing.
 */
@Timeout(value = 10, unit = TimeUnit.MINUTES) // long on purpose: above the module's 60 s default
class CollectionsPlantedBugTest {

    @Test
    void shouldCatchRingQueueThatPublishesSequenceBeforeItem() {
        assertThatThrownBy(() -> CollectionsLincheck.modelChecking(ConcurrentQueueSpec.class)
                .check(SequenceBeforeItemQueue.class))
                .isInstanceOf(AssertionError.class)
                .hasMessageContaining("Invalid execution results");
    }

    @Test
    void shouldCatchPackedSegmentQueueThatDoesNotWaitForUnfinishedWriter() {
        assertThatThrownBy(() -> CollectionsLincheck.modelChecking(ConcurrentQueueSpec.class)
                .check(NoWaitForWriterQueue.class))
                .isInstanceOf(AssertionError.class)
                .hasMessageContaining("Invalid execution results");
    }

    @Test
    void shouldCatchStackThatPublishesPushWithoutCas() {
        assertThatThrownBy(() -> CollectionsLincheck.modelChecking(StackSpec.class)
                .check(PlainWritePushStack.class))
                .isInstanceOf(AssertionError.class)
                .hasMessageContaining("Invalid execution results");
    }

    @Test
    void shouldCatchWorkStealingQueueWhosePopReadsHeadBeforeLoweringTail() {
        assertThatThrownBy(() -> CollectionsLincheck.modelChecking(WorkStealingQueueSpec.class)
                .check(EarlyHeadReadWorkStealingQueue.class))
                .isInstanceOf(AssertionError.class)
                .hasMessageContaining("Invalid execution results");
    }

    // ---------------------------------------------------------------- planted bugs

    /** A Vyukov ring (ConcurrentQueue's segment) whose producer publishes the slot before writing it. */
    @Param(name = "value", gen = IntGen.class, conf = "1:9")
    public static class SequenceBeforeItemQueue {
        private static final int LENGTH = 32;
        private static final VarHandle SEQUENCE = MethodHandles.arrayElementVarHandle(int[].class);
        private final Object[] items = new Object[LENGTH];
        private final int[] sequence = new int[LENGTH];
        private final Indices indices = new Indices();

        public SequenceBeforeItemQueue() {
            for (int i = 0; i < LENGTH; i++) {
                sequence[i] = i;
            }
        }

        @Operation
        public boolean offer(@Param(name = "value") int value) {
            for (;;) {
                int t = indices.tail;
                int slot = t & (LENGTH - 1);
                int seq = (int) SEQUENCE.getAcquire(sequence, slot);
                if (seq == t && Indices.TAIL.compareAndSet(indices, t, t + 1)) {
                    SEQUENCE.setRelease(sequence, slot, t + 1); // BUG: published before the item
                    items[slot] = value;
                    return true;
                }
                if (seq < t) {
                    return false;
                }
            }
        }

        @Operation
        public Integer poll() {
            for (;;) {
                int h = indices.head;
                int slot = h & (LENGTH - 1);
                int seq = (int) SEQUENCE.getAcquire(sequence, slot);
                if (seq == h + 1 && Indices.HEAD.compareAndSet(indices, h, h + 1)) {
                    Object item = items[slot];
                    items[slot] = null;
                    SEQUENCE.setRelease(sequence, slot, h + LENGTH);
                    return (Integer) item;
                }
                if (seq < h + 1 && indices.tail - h <= 0) {
                    return null;
                }
            }
        }
    }

    /** Head and tail indices of the planted ring. */
    static final class Indices {
        static final VarHandle HEAD;
        static final VarHandle TAIL;
        volatile int head;
        volatile int tail;

        static {
            try {
                MethodHandles.Lookup lookup = MethodHandles.lookup();
                HEAD = lookup.findVarHandle(Indices.class, "head", int.class);
                TAIL = lookup.findVarHandle(Indices.class, "tail", int.class);
            } catch (ReflectiveOperationException e) {
                throw new ExceptionInInitializerError(e);
            }
        }
    }

    /**
     * QueueSegmentQueue's packed 16/16 segment (one big segment) whose consumer, finding the
     * reserved slot not yet written, gives up instead of waiting: the element is lost.
     */
    @Param(name = "value", gen = IntGen.class, conf = "1:9")
    public static class NoWaitForWriterQueue {
        private static final VarHandle INDEXES;
        private static final VarHandle NODES = MethodHandles.arrayElementVarHandle(Object[].class);
        private final Object[] nodes = new Object[64];
        private volatile int indexes;

        static {
            try {
                INDEXES = MethodHandles.lookup().findVarHandle(NoWaitForWriterQueue.class, "indexes", int.class);
            } catch (ReflectiveOperationException e) {
                throw new ExceptionInInitializerError(e);
            }
        }

        @Operation
        public boolean offer(@Param(name = "value") int value) {
            for (;;) {
                int i = indexes;
                int upper = i >>> 16;
                if (INDEXES.compareAndSet(this, i, ((upper + 1) << 16) | (i & 0xFFFF))) {
                    NODES.setRelease(nodes, upper, value);
                    return true;
                }
            }
        }

        @Operation
        public Integer poll() {
            for (;;) {
                int i = indexes;
                int upper = i >>> 16;
                int lower = i & 0xFFFF;
                if (lower == upper) {
                    return null;
                }
                if (INDEXES.compareAndSet(this, i, (upper << 16) | (lower + 1))) {
                    return (Integer) NODES.getAcquire(nodes, lower); // BUG: null if the writer is not done
                }
            }
        }
    }

    /** A Treiber stack whose push writes head with a plain volatile store instead of a CAS. */
    @Param(name = "value", gen = IntGen.class, conf = "1:9")
    public static class PlainWritePushStack {
        private static final VarHandle HEAD;
        private volatile Node head;

        static {
            try {
                HEAD = MethodHandles.lookup().findVarHandle(PlainWritePushStack.class, "head", Node.class);
            } catch (ReflectiveOperationException e) {
                throw new ExceptionInInitializerError(e);
            }
        }

        record Node(int value, Node next) {
        }

        @Operation
        public void push(@Param(name = "value") int value) {
            head = new Node(value, head); // BUG: a concurrent push or pop in between is lost
        }

        @Operation
        public Integer pop() {
            for (;;) {
                Node h = head;
                if (h == null) {
                    return null;
                }
                if (HEAD.compareAndSet(this, h, h.next())) {
                    return h.value();
                }
            }
        }
    }

    /**
     * A work-stealing deque whose owner reads head before publishing the lowered tail (the
     * fence .NET's Interlocked.Exchange provides is missing): owner and thief can both take
     * the last element.
     */
    @Param(name = "value", gen = IntGen.class, conf = "1:9")
    public static class EarlyHeadReadWorkStealingQueue {
        private final Object[] array = new Object[64];
        private volatile int head;
        private volatile int tail;
        private volatile boolean lock;
        private static final VarHandle LOCK;

        static {
            try {
                LOCK = MethodHandles.lookup().findVarHandle(EarlyHeadReadWorkStealingQueue.class, "lock",
                        boolean.class);
            } catch (ReflectiveOperationException e) {
                throw new ExceptionInInitializerError(e);
            }
        }

        @Operation(nonParallelGroup = "owner")
        public void push(@Param(name = "value") int value) {
            int t = tail;
            array[t] = value;
            tail = t + 1;
        }

        @Operation(nonParallelGroup = "owner")
        public Integer pop() {
            int h = head; // BUG: read before tail is lowered
            int t = tail - 1;
            if (h > t) {
                return null;
            }
            tail = t;
            if (h <= t) {
                Object item = array[t];
                array[t] = null;
                return (Integer) item;
            }
            tail = t + 1;
            return null;
        }

        @Operation
        public Integer steal() {
            for (;;) {
                if (head >= tail) {
                    return null;
                }
                if (!LOCK.compareAndSet(this, false, true)) {
                    continue;
                }
                try {
                    int h = head;
                    head = h + 1;
                    if (h < tail) {
                        Object item = array[h];
                        array[h] = null;
                        return (Integer) item;
                    }
                    head = h;
                    return null;
                } finally {
                    lock = false;
                }
            }
        }
    }
}
