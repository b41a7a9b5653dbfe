package io.spinlab.properties.interleave.scenario;

import io.spinlab.impl.collections.WorkStealingQueue;
import io.spinlab.impl.spin.SpinContext;
import io.spinlab.model.tuning.Tuning;
import io.spinlab.properties.interleave.Interleaving;
import io.spinlab.properties.interleave.Interleaving.Party;
import io.spinlab.properties.lincheck.CheckedContexts;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * Races inside {@link WorkStealingQueue} that only an interleaving of single accesses reaches, staged
 * with {@link Interleaving}.
 */
public final class WorkStealingQueueInterleavings {
    private WorkStealingQueueInterleavings() {
    }

    /**
     * The owner's tail has reached {@code Integer.MAX_VALUE} (after 2^31 pushes; set here through the
     * fields) with the queue empty; its push masks both indices down under the lock, and a thief tries
     * a steal right after, before the push stores its element. Both indices must have come down
     * together: the thief must find the queue empty, and the element pushed must then be there.
     */
    public static void stealRightAfterTheTailIsMaskedDownFindsTheQueueEmpty()
            throws ReflectiveOperationException {
        try (Interleaving il = Interleaving.begin(2, 1_000_000_000L)) {
            SpinContext context = SpinContext.of(il.platform(), Tuning.current(),
                    CheckedContexts.FixedPauseNormalizer.INSTANCE);
            WorkStealingQueue<Integer> queue = new WorkStealingQueue<>(context, 32);
            MethodHandles.Lookup lookup =
                    MethodHandles.privateLookupIn(WorkStealingQueue.class, MethodHandles.lookup());
            VarHandle head = lookup.findVarHandle(WorkStealingQueue.class, "head", int.class);
            VarHandle tail = lookup.findVarHandle(WorkStealingQueue.class, "tail", int.class);
            head.setVolatile(queue, Integer.MAX_VALUE);
            tail.setVolatile(queue, Integer.MAX_VALUE);
            Integer[] stolen = new Integer[1];
            Party owner = il.party("owner", () -> queue.push(7));
            Party thief = il.party("thief", () -> stolen[0] = queue.trySteal());
            owner.runUntil("WorkStealingQueue.push:mask"); // masked the indices down; stores its element next
            thief.runToEnd();
            if (stolen[0] != null) {
                throw new AssertionError("the thief stole " + stolen[0] + " from an empty queue");
            }
            owner.runToEnd();
            Integer popped = queue.pop();
            if (popped == null || popped != 7) {
                throw new AssertionError("the element pushed across the bound was lost: popped " + popped);
            }
        }
    }
}
