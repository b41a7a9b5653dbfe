package io.spinlab.properties.sim.guest;

import io.spinlab.impl.event.Barrier;
import io.spinlab.impl.spin.SpinContext;
import io.spinlab.model.platform.Platform;
import io.spinlab.model.tuning.Tuning;
import io.spinlab.properties.sim.BarrierWorld;
import io.spinlab.properties.sim.SimScenario;

import java.util.Arrays;
import java.util.concurrent.TimeUnit;

/**
 * A {@link BarrierWorld} run: its participants start together and each arrives its number of
 * times, arriving again after a withdrawn (timed-out) arrival; the leaver, if any, then removes
 * itself. It observes, per participant, the
 * arrivals that completed a phase and the ones withdrawn, then the phases finished (post-phase
 * actions run), the barrier's phase number and participant count once every thread is done, and
 * the threads done. Threads run one at a time in the simulator, so plain fields are enough here.
 */
public final class BarrierPhaseScenario implements SimScenario<long[]> {

    /** Index of the final state in the observation, after the per-participant counts. */
    public static final int PHASES_FINISHED = 0;
    public static final int PHASE_AT_END = 1;
    public static final int PARTICIPANTS_AT_END = 2;
    public static final int THREADS_DONE = 3;
    private static final int STATE_FIELDS = 4;

    private final BarrierWorld world;
    private final long[] completed;
    private final long[] withdrawn;
    private final long[] state = new long[STATE_FIELDS];

    public BarrierPhaseScenario(BarrierWorld world) {
        this.world = world;
        this.completed = new long[world.participants()];
        this.withdrawn = new long[world.participants()];
    }

    @Override
    public void start(Platform platform, Tuning tuning) {
        platform.startThread("main", () -> run(platform, tuning));
    }

    private void run(Platform platform, Tuning tuning) {
        Barrier barrier = new Barrier(SpinContext.of(platform, tuning), world.participants(),
                b -> state[PHASES_FINISHED]++);
        int threads = world.participants() + (world.joiner() ? 1 : 0);
        for (int i = 0; i < world.participants(); i++) {
            int index = i;
            long timeout = index % 2 == 0 ? world.timeoutNanos() : 0;
            platform.startThread("participant-" + i, () -> {
                for (int n = 0; n < world.arrivalsOf(index); n++) {
                    platform.pause(world.workPauses());
                    while (!arrive(barrier, timeout)) {
                        withdrawn[index]++;
                    }
                    completed[index]++;
                }
                if (world.leaverArrivals() > 0 && index == world.participants() - 1) {
                    barrier.removeParticipants(1);
                }
                done(barrier, threads);
            });
        }
        if (world.joiner()) {
            platform.startThread("joiner", () -> {
                platform.pause(world.joinDelayPauses());
                barrier.addParticipants(1);
                platform.pause(world.workPauses());
                barrier.removeParticipants(1);
                done(barrier, threads);
            });
        }
    }

    private void done(Barrier barrier, int threads) {
        if (++state[THREADS_DONE] == threads) {
            state[PHASE_AT_END] = barrier.currentPhase();
            state[PARTICIPANTS_AT_END] = barrier.participantCount();
        }
    }

    /** Arrives untimed ({@code timeoutNanos} 0) or for at most {@code timeoutNanos}; false if withdrawn. */
    private static boolean arrive(Barrier barrier, long timeoutNanos) {
        try {
            if (timeoutNanos == 0) {
                barrier.signalAndWait();
                return true;
            }
            return barrier.signalAndWait(timeoutNanos, TimeUnit.NANOSECONDS);
        } catch (InterruptedException e) {
            throw new IllegalStateException("interrupted", e);
        }
    }

    /** Per participant the completed arrivals, then per participant the withdrawn ones, then the four state fields. */
    @Override
    public long[] observed() {
        int participants = completed.length;
        long[] observation = Arrays.copyOf(completed, 2 * participants + STATE_FIELDS);
        System.arraycopy(withdrawn, 0, observation, participants, participants);
        System.arraycopy(state, 0, observation, 2 * participants, STATE_FIELDS);
        return observation;
    }
}
