package io.spinlab.properties.sim.guest;

import io.spinlab.model.tuning.ThreadRequestPolicy;
import io.spinlab.impl.event.CountdownEvent;
import io.spinlab.impl.pool.ThreadPool;
import io.spinlab.impl.spin.SpinContext;
import io.spinlab.model.platform.Platform;
import io.spinlab.model.tuning.Knob;
import io.spinlab.model.tuning.Tuning;
import io.spinlab.properties.sim.PoolObservation;
import io.spinlab.properties.sim.PoolWorld;
import io.spinlab.properties.sim.SimScenario;

import java.util.List;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;

/**
 * A {@link PoolWorld} run: a controller builds the pool and starts the submitters; each submits
 * its items in order (and one of them may shut the pool down part-way); items submit their
 * children, run their work and may throw; the controller then waits the world's delay, shuts the
 * pool down (again, if it already was) and waits for it to terminate. Every submission, run, return and shutdown is
 * recorded for the checks; nothing is judged here.
 *
 * <p>The records are plain fields: one simulated thread runs at a time and hands over through the
 * engine, and plain fields of this class are no scheduling points even with the memory model, so
 * each record is one atomic step of the scenario.
 */
public final class ThreadPoolScenario implements SimScenario<PoolObservation> {

    /** How long the controller waits for the pool to terminate (virtual time). */
    static final long TERMINATION_WAIT_SECONDS = 10;

    private final PoolWorld world;
    private final int[] runs;
    private final int[] returned;
    private final int[] submitted;
    private final long[] submitBegan;
    private final long[] submitEnded;
    private final long[] firstRunBegan;
    private final boolean[] firstRunInterrupted;
    private Platform platform;
    private long clock;
    private long shutdownBegan = Long.MAX_VALUE;
    private long shutdownEnded = Long.MAX_VALUE;
    private long shutdownNowEnded = Long.MAX_VALUE;
    private int errors;
    private PoolObservation observation;

    public ThreadPoolScenario(PoolWorld world) {
        this.world = world;
        int items = world.itemCount();
        this.runs = new int[items];
        this.returned = new int[items];
        this.submitted = new int[items];
        this.submitBegan = new long[items];
        this.submitEnded = new long[items];
        this.firstRunBegan = new long[items];
        this.firstRunInterrupted = new boolean[items];
    }

    @Override
    public void start(Platform simulated, Tuning tuning) {
        this.platform = simulated;
        platform.startThread("controller", () -> {
            try {
                control(tuning);
            } catch (InterruptedException e) {
                throw new IllegalStateException("the controller was interrupted", e);
            }
        });
    }

    private void control(Tuning tuning) throws InterruptedException {
        SpinContext context = SpinContext.of(platform, tuning.with(Knob.GLOBAL_QUEUE, world.globalQueue()));
        ThreadPool pool = ThreadPool.builder(context).name("pool")
                .minWorkers(world.minWorkers()).maxWorkers(world.maxWorkers())
                .idleTimeout(world.idleTimeoutNanos(), TimeUnit.NANOSECONDS)
                .gateInterval(world.gateIntervalNanos(), TimeUnit.NANOSECONDS)
                .requestPolicy(world.perItemRequests() ? ThreadRequestPolicy.PER_ITEM
                        : ThreadRequestPolicy.CASCADING)
                .errorHandler((item, error) -> errors++)
                .build();
        List<List<PoolWorld.Item>> submitters = world.submitters();
        CountdownEvent done = new CountdownEvent(context, Math.max(1, submitters.size()));
        if (submitters.isEmpty()) {
            done.signal();
        }
        for (int s = 0; s < submitters.size(); s++) {
            int index = s;
            platform.startThread("submitter-" + s, () -> {
                try {
                    submitAll(pool, index, submitters.get(index));
                } finally {
                    done.signal();
                }
            });
        }
        done.await();
        if (world.shutdownDelayNanos() > 0) {
            platform.sleep(world.shutdownDelayNanos());
        }
        shutdown(pool, false);
        boolean terminated = pool.awaitTermination(TERMINATION_WAIT_SECONDS, TimeUnit.SECONDS);
        observation = new PoolObservation(runs, returned, submitted, submitBegan, submitEnded, shutdownBegan,
                shutdownEnded, terminated, pool.pendingCount(), errors, pool.stealCount(), firstRunBegan,
                firstRunInterrupted, shutdownNowEnded);
    }

    private void submitAll(ThreadPool pool, int index, List<PoolWorld.Item> items) {
        for (int i = 0; i < items.size(); i++) {
            if (index == world.shutdownBy() && i == world.shutdownAfter()) {
                shutdown(pool, world.shutdownNow());
            }
            PoolWorld.Item item = items.get(i);
            platform.pause(item.pausesBefore());
            submit(pool, item);
            if (index == 0 && i == 0 && world.plant() == PoolWorld.Plant.SUBMIT_FIRST_ITEM_TWICE) {
                try {
                    pool.executeGlobal(new ItemRun(pool, item));
                } catch (RejectedExecutionException e) {
                    // the planted second submission is not recorded either way
                }
            }
        }
        if (index == world.shutdownBy() && world.shutdownAfter() >= items.size()) {
            shutdown(pool, world.shutdownNow());
        }
    }

    private void submit(ThreadPool pool, PoolWorld.Item item) {
        ItemRun run = new ItemRun(pool, item);
        int id = item.id();
        submitBegan[id] = ++clock;
        try {
            if (item.global()) {
                pool.executeGlobal(run);
            } else {
                pool.execute(run);
            }
            submitted[id] = PoolObservation.ACCEPTED;
        } catch (RejectedExecutionException e) {
            submitted[id] = PoolObservation.REJECTED;
        }
        submitEnded[id] = ++clock;
    }

    private void shutdown(ThreadPool pool, boolean now) {
        boolean first = shutdownBegan == Long.MAX_VALUE;
        long began = ++clock;
        if (now) {
            for (Runnable r : pool.shutdownNow()) {
                if (r instanceof ItemRun itemRun) {
                    returned[itemRun.item.id()]++;
                }
            }
        } else {
            pool.shutdown();
        }
        long ended = ++clock;
        if (now && shutdownNowEnded == Long.MAX_VALUE) {
            shutdownNowEnded = ended;
        }
        if (first) {
            shutdownBegan = began;
            shutdownEnded = ended;
        }
    }

    @Override
    public PoolObservation observed() {
        return observation;
    }

    /** One work item: counts its run, works, submits its children, maybe throws. */
    private final class ItemRun implements Runnable {
        private final ThreadPool pool;
        final PoolWorld.Item item;

        ItemRun(ThreadPool pool, PoolWorld.Item item) {
            this.pool = pool;
            this.item = item;
        }

        @Override
        public void run() {
            boolean interrupted = Thread.currentThread().isInterrupted();
            long began = ++clock;
            if (runs[item.id()]++ == 0) {
                firstRunBegan[item.id()] = began;
                firstRunInterrupted[item.id()] = interrupted;
            }
            for (PoolWorld.Item child : item.children()) {
                platform.pause(child.pausesBefore());
                submit(pool, child);
            }
            platform.pause(item.workPauses());
            if (item.fails()) {
                throw new IllegalStateException("item #" + item.id() + " fails as planned");
            }
        }
    }
}
