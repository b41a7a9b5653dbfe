package io.spinlab.sim.workload;

import io.spinlab.model.platform.Platform;

/**
 * Per-worker start and end times of a test workload, each slot written by its worker only and
 * read after the join: the measured interval is from the first start to the last end.
 */
final class Timing {
    private final long[] begin;
    private final long[] end;

    Timing(int workers) {
        this.begin = new long[workers];
        this.end = new long[workers];
    }

    void begin(int worker, Platform platform) {
        begin[worker] = platform.nanoTime();
    }

    void end(int worker, Platform platform) {
        end[worker] = platform.nanoTime();
    }

    long elapsed() {
        long first = Long.MAX_VALUE;
        long last = Long.MIN_VALUE;
        for (int w = 0; w < begin.length; w++) {
            first = Math.min(first, begin[w]);
            last = Math.max(last, end[w]);
        }
        return last - first;
    }
}
