package io.spinlab.sim.memory;

/**
 * What the memory model counted in one run: accesses by kind, how many hit in the accessing
 * core's cache, how many needed a line moved or other copies invalidated, how long accesses
 * stalled behind another core's exclusive access to the same line, and how many objects and
 * lines were touched. Virtual-time figures are picoseconds.
 *
 * @param reads          loads
 * @param writes         stores without a fence (release, opaque, plain)
 * @param volatileWrites volatile stores (store plus fence)
 * @param readModifyWrites locked read-modify-writes (CAS, exchange, add, bitwise)
 * @param hits           accesses served by the core's own copy
 * @param transfers      accesses that moved the line from another core (or memory), or invalidated other copies
 * @param stallPicos     total time accesses waited for a line another core held for its exclusive access,
 *                       and locked instructions for their processor's store buffer to drain
 * @param objects        distinct objects (and classes, for static fields) touched
 * @param lines          distinct cache lines touched
 */
public record MemoryMetrics(long reads, long writes, long volatileWrites, long readModifyWrites, long hits,
                            long transfers, long stallPicos, long objects, long lines) {

    /** Every access counted. */
    public long accesses() {
        return reads + writes + volatileWrites + readModifyWrites;
    }

    /** Share of accesses that hit, 0 with no access. */
    public double hitRate() {
        long n = accesses();
        return n == 0 ? 0 : (double) hits / n;
    }
}
