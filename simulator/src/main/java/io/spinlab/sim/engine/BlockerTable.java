package io.spinlab.sim.engine;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.List;

/**
 * The objects a run's threads parked or spin-waited on, each with its {@link BlockerStats}, in
 * first-use order. A blocker is named by its class's simple name and how many blockers of that
 * class came before it ({@code ManualResetEvent#0}, {@code ManualResetEvent#1}); a null blocker is
 * one entry of its own, {@code null#0}. The map is keyed by identity and used for lookups only, so
 * nothing identity-based reaches a decision or the digest.
 */
final class BlockerTable {
    private final IdentityHashMap<Object, BlockerStats> byBlocker = new IdentityHashMap<>();
    private final ArrayList<BlockerStats> inOrder = new ArrayList<>();
    private final HashMap<String, Integer> classCounts = new HashMap<>();

    /** The stats of {@code blocker} (null allowed), made on its first use. */
    BlockerStats of(Object blocker) {
        Object key = key(blocker);
        BlockerStats stats = byBlocker.get(key);
        if (stats == null) {
            String simple = key == NullBlocker.INSTANCE ? "null" : key.getClass().getSimpleName();
            if (simple.isEmpty()) {
                simple = key.getClass().getName();
            }
            int n = classCounts.merge(simple, 1, Integer::sum) - 1;
            stats = new BlockerStats(inOrder.size(), simple + "#" + n, key);
            byBlocker.put(key, stats);
            inOrder.add(stats);
        }
        return stats;
    }

    /** The blocker with id {@code id} (its first-use position). */
    BlockerStats get(int id) {
        return inOrder.get(id);
    }

    /** Whether {@code stats} is the entry of {@code blocker} (null allowed). */
    static boolean isOf(BlockerStats stats, Object blocker) {
        return stats.blocker == key(blocker);
    }

    /** Every blocker, in first-use order. */
    List<BlockerStats> all() {
        return inOrder;
    }

    private static Object key(Object blocker) {
        return blocker == null ? NullBlocker.INSTANCE : blocker;
    }

    /** Stands in for a null blocker. */
    private static final class NullBlocker {
        static final NullBlocker INSTANCE = new NullBlocker();

        @Override
        public String toString() {
            return "no blocker";
        }
    }
}
