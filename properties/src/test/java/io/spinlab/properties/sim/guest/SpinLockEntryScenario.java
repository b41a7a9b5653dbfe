package io.spinlab.properties.sim.guest;

import io.spinlab.impl.lock.SpinLock;
import io.spinlab.impl.spin.SpinContext;
import io.spinlab.model.platform.Platform;
import io.spinlab.model.tuning.Knob;
import io.spinlab.model.tuning.Tuning;
import io.spinlab.properties.sim.SpinLockWorld;
import io.spinlab.properties.sim.SimScenario;

import java.util.Arrays;
import java.util.concurrent.TimeUnit;

/**
 * A {@link SpinLockWorld} run: its threads start together and each enters the lock its number of
 * times. It observes, per thread, the critical sections completed and the timed entries that timed
 * out, the most threads ever inside the lock at once (1 when exclusion holds), and the lock's state
 * once the last thread is done: whether it is held, whether it is still in anonymous mode, and its
 * waiter count. Threads run one at a time in the simulator, so plain fields are enough here.
 */
public final class SpinLockEntryScenario implements SimScenario<int[]> {

    /** Index of the final state in the observation, after the per-thread counts. */
    public static final int MOST_INSIDE = 0;
    public static final int HELD_AT_END = 1;
    public static final int ANONYMOUS_AT_END = 2;
    public static final int WAITERS_AT_END = 3;
    public static final int THREADS_DONE = 4;
    private static final int STATE_FIELDS = 5;

    private final SpinLockWorld world;
    private final int[] completed;
    /** Per thread, the timed entries that timed out (their critical sections skipped). */
    private final int[] timedOut;
    private final int[] state = new int[STATE_FIELDS];
    private int inside;

    public SpinLockEntryScenario(SpinLockWorld world) {
        this.world = world;
        this.completed = new int[world.threads()];
        this.timedOut = new int[world.threads()];
    }

    @Override
    public void start(Platform platform, Tuning tuning) {
        platform.startThread("main", () -> run(platform, tuning));
    }

    private void run(Platform platform, Tuning tuning) {
        SpinLock lock = new SpinLock(SpinContext.of(platform, tuning.with(Knob.SPINLOCK, world.spinLock())), false);
        for (int i = 0; i < world.threads(); i++) {
            int index = i;
            platform.startThread("enterer-" + i, () -> {
                for (int n = 0; n < world.acquisitions(); n++) {
                    if (!enter(lock, index % 2 == 0 ? world.timeoutNanos() : 0)) {
                        timedOut[index]++;
                        continue;
                    }
                    state[MOST_INSIDE] = Math.max(state[MOST_INSIDE], ++inside);
                    platform.pause(world.holdPauses());
                    inside--;
                    completed[index]++;
                    lock.exit(!world.releaseStoreExits());
                    platform.pause(world.gapPauses());
                }
                if (++state[THREADS_DONE] == world.threads()) {
                    state[HELD_AT_END] = lock.isHeld() ? 1 : 0;
                    state[ANONYMOUS_AT_END] = lock.isThreadOwnerTrackingEnabled() ? 0 : 1;
                    state[WAITERS_AT_END] = lock.waiterCount();
                }
            });
        }
    }

    /** Enters untimed ({@code timeoutNanos} 0) or tries for {@code timeoutNanos}; false if that timed out. */
    private static boolean enter(SpinLock lock, long timeoutNanos) {
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

    /** Per thread the critical sections completed, then per thread the time-outs, then the five state fields. */
    @Override
    public int[] observed() {
        int threads = completed.length;
        int[] observation = Arrays.copyOf(completed, 2 * threads + STATE_FIELDS);
        System.arraycopy(timedOut, 0, observation, threads, threads);
        System.arraycopy(state, 0, observation, 2 * threads, STATE_FIELDS);
        return observation;
    }
}
