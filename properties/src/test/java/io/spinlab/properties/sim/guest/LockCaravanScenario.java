package io.spinlab.properties.sim.guest;

import io.spinlab.impl.buffer.BufferManagerConfig;
import io.spinlab.impl.buffer.BufferManagerDiagnostics;
import io.spinlab.impl.buffer.EventBufferManager;
import io.spinlab.impl.buffer.EventConsumer;
import io.spinlab.impl.buffer.EventReader;
import io.spinlab.impl.buffer.EventView;
import io.spinlab.impl.buffer.EventWriter;
import io.spinlab.impl.buffer.WriteOutcome;
import io.spinlab.impl.event.CountdownEvent;
import io.spinlab.impl.event.ManualResetEvent;
import io.spinlab.impl.spin.SpinContext;
import io.spinlab.model.platform.Platform;
import io.spinlab.model.tuning.Knob;
import io.spinlab.model.tuning.Tuning;
import io.spinlab.properties.sim.BufferObservation;
import io.spinlab.properties.sim.CaravanObservation;
import io.spinlab.properties.sim.CaravanWorld;
import io.spinlab.properties.sim.SimScenario;

/**
 * A {@link CaravanWorld} run, in three phases on one controlling thread: fill the manager to its
 * limit with one writer; start the failing writers and wait for them, noting the lock counters
 * before and after; then stop the manager and drain it.
 */
public final class LockCaravanScenario implements SimScenario<CaravanObservation> {

    private final CaravanWorld world;
    private final int[][] outcomes;
    private CaravanObservation observation;

    public LockCaravanScenario(CaravanWorld world) {
        this.world = world;
        this.outcomes = new int[world.failingWriters()][world.attemptsPerWriter()];
    }

    @Override
    public void start(Platform platform, Tuning tuning) {
        platform.startThread("main", () -> {
            try {
                run(platform, tuning);
            } catch (InterruptedException e) {
                throw new IllegalStateException("interrupted", e);
            }
        });
    }

    private void run(Platform platform, Tuning tuning) throws InterruptedException {
        SpinContext context = SpinContext.of(platform, tuning.with(Knob.RESERVATION, world.reservation()));
        EventBufferManager manager = new EventBufferManager(context, new BufferManagerConfig(CaravanWorld.LIMIT_BYTES,
                CaravanWorld.BUFFER_BYTES, CaravanWorld.BUFFER_BYTES, CaravanWorld.PAYLOAD_BYTES, 1 << 20));
        EventWriter filler = manager.newWriter();
        EventWriter[] failing = new EventWriter[world.failingWriters()];
        for (int i = 0; i < failing.length; i++) {
            failing[i] = manager.newWriter();
        }
        byte[] payload = new byte[CaravanWorld.PAYLOAD_BYTES];
        int fillerWritten = 0;
        while (filler.write(payload) == WriteOutcome.WRITTEN) {
            fillerWritten++;
        }
        filler.close();

        // The failing writers start together, at a gate: started one by one they could each be
        // done before the next one began, and nobody would ever wait for anybody.
        ManualResetEvent gate = new ManualResetEvent(context);
        CountdownEvent done = new CountdownEvent(context, failing.length);
        for (int i = 0; i < failing.length; i++) {
            int index = i;
            platform.startThread("failing-" + i, () -> {
                try {
                    gate.await();
                    for (int attempt = 0; attempt < world.attemptsPerWriter(); attempt++) {
                        outcomes[index][attempt] = BufferManagerScenario.code(failing[index].write(payload));
                    }
                    failing[index].close();
                } catch (InterruptedException e) {
                    throw new IllegalStateException("interrupted", e);
                } finally {
                    done.signal();
                }
            });
        }
        BufferManagerDiagnostics before = manager.diagnostics();
        long start = platform.nanoTime();
        gate.set();
        done.await();
        long phaseNanos = platform.nanoTime() - start;
        BufferManagerDiagnostics after = manager.diagnostics();

        manager.stop();
        EventReader reader = manager.reader();
        EventConsumer ignore = new EventConsumer() {
            @Override
            public void onEvent(EventView event) {
            }
        };
        while (!reader.isDrained()) {
            reader.read(ignore);
        }
        observation = new CaravanObservation(fillerWritten, outcomes,
                after.lockAcquisitions() - before.lockAcquisitions(),
                after.dropPathLockAcquisitions() - before.dropPathLockAcquisitions(), phaseNanos, reader.eventsRead(),
                reader.dropsSeen());
    }

    @Override
    public CaravanObservation observed() {
        return observation;
    }
}
