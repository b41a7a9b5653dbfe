package io.spinlab.sim.workload;

import io.spinlab.impl.event.Barrier;
import io.spinlab.impl.spin.SpinContext;

/**
 * SpinPerf's BarrierSyncRate: N participants meet at a {@link Barrier} phase after phase, with
 * a tick between phases. Score: participant passes per ms (N per phase). Waiting at the
 * barrier is a ManualResetEvent wait, so the {@code spin} knob and the PAUSE cost decide
 * whether the early arrivers block.
 *
 * <p>Ending: the post-phase action, run by the last arriver before the phase is released,
 * marks the run finished once the window is over, so every participant leaves after the same
 * phase.
 */
public final class BarrierSyncRate extends WindowedWorkload {

    public static final String NAME = "barrier-sync-rate";

    static final WorkloadType TYPE = new WorkloadType(NAME,
            "N participants meet at a barrier phase after phase; participant passes/ms",
            parameterList(), p -> new BarrierSyncRate(p.threads("threads"), p.window()));

    /**
     * @param participants participating threads
     * @param window       warm-up and measured window
     */
    public BarrierSyncRate(ThreadCount participants, Window window) {
        super(participants, window);
    }

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public WorkloadResult run(SpinContext context) throws InterruptedException {
        int participants = threads().resolve(context.processorCount());
        MeasuredRun run = new MeasuredRun(context, window(), participants);
        Finish finish = new Finish();
        Barrier barrier = new Barrier(context, participants, b -> {
            if (!run.running()) {
                finish.finished = true;
            }
        });
        run.metric("threads", participants);
        for (int p = 0; p < participants; p++) {
            run.start("participant-" + p, slot -> {
                for (;;) {
                    barrier.signalAndWait();
                    if (finish.finished) {
                        return;
                    }
                    run.count(slot);
                }
            });
        }
        return run.measure(this, () -> { });
    }

    /** Set by the post-phase action of the last phase. */
    private static final class Finish {
        volatile boolean finished;
    }
}
