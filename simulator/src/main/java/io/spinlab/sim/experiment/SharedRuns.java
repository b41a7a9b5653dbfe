package io.spinlab.sim.experiment;

import io.spinlab.model.machine.MachineProfile;
import io.spinlab.sim.workload.ScoreChoice;
import io.spinlab.sim.workload.SimulatedRun;

import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.FutureTask;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;

/**
 * The simulations that several rows of one experiment run score: rows whose workloads differ
 * only in what the score counts ({@link ScoreChoice}) are one simulation per tuning and seed,
 * run once and scored each way. Safe for the experiment's parallel rows: a caller that asks for
 * a run another one is simulating waits for it.
 */
final class SharedRuns {

    /**
     * One simulation: the workload's source and shared parameters, the machine, which of the
     * experiment's two tunings, and the seed (the experiment fixes the cost model and the noise).
     */
    record Key(String source, String parameters, MachineProfile machine, boolean right, long seed) {
    }

    private final ConcurrentHashMap<Key, FutureTask<SimulatedRun>> runs = new ConcurrentHashMap<>();
    private final AtomicInteger simulated = new AtomicInteger();

    /** The run of {@code key}: simulated now by {@code simulation} if no caller asked for it before. */
    SimulatedRun get(Key key, Supplier<SimulatedRun> simulation) {
        FutureTask<SimulatedRun> fresh = new FutureTask<>(simulation::get);
        FutureTask<SimulatedRun> task = runs.putIfAbsent(key, fresh);
        if (task == null) {
            task = fresh;
            simulated.incrementAndGet();
            task.run();
        }
        try {
            return task.get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while waiting for the shared run " + key, e);
        } catch (ExecutionException e) {
            if (e.getCause() instanceof RuntimeException runtime) {
                throw runtime;
            }
            if (e.getCause() instanceof Error error) {
                throw error;
            }
            throw new IllegalStateException(e.getCause());
        }
    }

    /** How many simulations {@link #get} ran. */
    int simulated() {
        return simulated.get();
    }
}
