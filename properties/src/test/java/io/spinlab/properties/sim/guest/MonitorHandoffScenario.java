package io.spinlab.properties.sim.guest;

import io.spinlab.impl.lock.MonitorLock;
import io.spinlab.impl.spin.SpinContext;
import io.spinlab.model.platform.Platform;
import io.spinlab.model.tuning.Knob;
import io.spinlab.model.tuning.Tuning;
import io.spinlab.properties.sim.MonitorWorld;
import io.spinlab.properties.sim.SimScenario;

import java.util.Arrays;
import java.util.concurrent.TimeUnit;

/**
 * A {@link MonitorWorld} run: its threads start together and each enters the lock its number of
 * times; what it observes is, per thread, how many critical sections it completed and how
 * many timed entries timed out, and the most threads ever seen inside the lock at once (1 when
 * exclusion holds).
 */
public final class MonitorHandoffScenario implements SimScenario<int[]> {

    private final MonitorWorld world;
    private final int[] completed;
    /** Per thread, the timed entries that timed out (their critical sections skipped). */
    private final int[] timedOut;
    private int inside;
    private int mostInside;

    public MonitorHandoffScenario(MonitorWorld world) {
        this.world = world;
        this.completed = new int[world.threads()];
        this.timedOut = new int[world.threads()];
    }

    @Override
    public void start(Platform platform, Tuning tuning) {
        platform.startThread("main", () -> run(platform, tuning));
    }

    private void run(Platform platform, Tuning tuning) {
        MonitorLock lock = new MonitorLock(SpinContext.of(platform, tuning.with(Knob.MONITOR, world.monitor())));
        for (int i = 0; i < world.threads(); i++) {
            int index = i;
            platform.startThread("enterer-" + i, () -> {
                for (int n = 0; n < world.acquisitions(); n++) {
                    if (!enter(lock, index % 2 == 0 ? world.timeoutNanos() : 0)) {
                        timedOut[index]++;
                        continue;
                    }
                    try {
                        mostInside = Math.max(mostInside, ++inside);
                        platform.pause(world.holdPauses());
                        inside--;
                        completed[index]++;
                    } finally {
                        lock.exit();
                    }
                    platform.pause(world.gapPauses());
                }
            });
        }
    }

    /** Enters untimed ({@code timeoutNanos} 0) or tries for {@code timeoutNanos}; false if that timed out. */
    private static boolean enter(MonitorLock lock, long timeoutNanos) {
        if (timeoutNanos == 0) {
            lock.enter();
            return true;
        }
        try {
            return lock.tryEnter(timeoutNanos, TimeUnit.NANOSECONDS);
        } catch (InterruptedException e) {
            throw new IllegalStateException("interrupted", e);
        }
    }

    /** Per thread the critical sections completed, then per thread the time-outs, then the most inside at once. */
    @Override
    public int[] observed() {
        int threads = completed.length;
        int[] observation = Arrays.copyOf(completed, 2 * threads + 1);
        System.arraycopy(timedOut, 0, observation, threads, threads);
        observation[2 * threads] = mostInside;
        return observation;
    }
}
