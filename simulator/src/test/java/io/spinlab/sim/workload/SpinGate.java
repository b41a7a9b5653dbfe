package io.spinlab.sim.workload;

import io.spinlab.model.platform.Platform;

/**
 * A start line for test workloads: workers spin on a volatile flag (one PAUSE per look) until
 * it opens, so that they start within a cache-line transfer of each other. A blocking event
 * would release them a wake-up latency apart, long enough for short workloads not to overlap.
 */
final class SpinGate {
    private volatile boolean open;

    void open() {
        open = true;
    }

    void await(Platform platform) {
        while (!open) {
            platform.pause(1);
        }
    }
}
