package io.spinlab.properties.sim.guest;

import io.spinlab.impl.lock.SpinLock;
import io.spinlab.impl.spin.SpinContext;
import io.spinlab.model.platform.Platform;
import io.spinlab.model.tuning.Tuning;
import io.spinlab.properties.sim.SimScenario;
import io.spinlab.properties.sim.SpinLockExitRaceWorld;

/**
 * A {@link SpinLockExitRaceWorld} run: the lock is entered once, then two threads exit it (and the
 * waiter, if any, enters it and exits it). Two holds, three or two exits: exactly one exit must be
 * refused, whoever makes it. It observes how many exits were refused ({@code IllegalMonitorStateException}), how many
 * times the optional waiter entered, and, once every thread is done, whether the lock is held,
 * still anonymous, and its waiter count. Threads run one at a time in the simulator, so plain
 * fields are enough here.
 */
public final class SpinLockExitRaceScenario implements SimScenario<int[]> {

    public static final int EXITS_REFUSED = 0;
    public static final int WAITER_ENTRIES = 1;
    public static final int HELD_AT_END = 2;
    public static final int ANONYMOUS_AT_END = 3;
    public static final int WAITERS_AT_END = 4;
    public static final int THREADS_DONE = 5;

    private final SpinLockExitRaceWorld world;
    private final int[] observed = new int[6];

    public SpinLockExitRaceScenario(SpinLockExitRaceWorld world) {
        this.world = world;
    }

    @Override
    public void start(Platform platform, Tuning tuning) {
        platform.startThread("main", () -> run(platform, tuning));
    }

    private void run(Platform platform, Tuning tuning) {
        SpinLock lock = new SpinLock(SpinContext.of(platform, tuning), false);
        lock.enter();
        int threads = world.waiter() ? 3 : 2;
        int[] delays = {world.firstDelayPauses(), world.secondDelayPauses()};
        for (int i = 0; i < 2; i++) {
            int delay = delays[i];
            platform.startThread("exiter-" + i, () -> {
                platform.pause(delay);
                exit(lock);
                done(lock, threads);
            });
        }
        if (world.waiter()) {
            platform.startThread("waiter", () -> {
                lock.enter();
                observed[WAITER_ENTRIES]++;
                exit(lock);
                done(lock, threads);
            });
        }
    }

    /** Exits, counting a refusal: one of the three exits finds the lock free (an exiter took the waiter's hold). */
    private void exit(SpinLock lock) {
        try {
            lock.exit();
        } catch (IllegalMonitorStateException refused) {
            observed[EXITS_REFUSED]++;
        }
    }

    private void done(SpinLock lock, int threads) {
        if (++observed[THREADS_DONE] == threads) {
            observed[HELD_AT_END] = lock.isHeld() ? 1 : 0;
            observed[ANONYMOUS_AT_END] = lock.isThreadOwnerTrackingEnabled() ? 0 : 1;
            observed[WAITERS_AT_END] = lock.waiterCount();
        }
    }

    @Override
    public int[] observed() {
        return observed.clone();
    }
}
