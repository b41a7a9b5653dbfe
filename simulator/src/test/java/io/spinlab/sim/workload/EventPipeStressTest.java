package io.spinlab.sim.workload;

import io.spinlab.model.machine.MachinePresets;
import io.spinlab.model.machine.MachineProfile;
import io.spinlab.model.tuning.Tuning;
import io.spinlab.sim.engine.Simulation;
import io.spinlab.sim.trace.Activity;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The EventPipe stress workload: saturated runs lose nothing unaccounted, and the knob changes who takes the lock. */
class EventPipeStressTest {

    private static final MachineProfile MACBOOK = MachinePresets.byName("kabylake-i7-7700hq");
    private static final String SATURATED = "threads=8,limit=1mb,reader-interval=0,warmup=200us,window=1ms";
    private static final String STREAMED = "threads=6,limit=1mb,reader-interval=0,payload=200,stream=8kb,warmup=200us,"
            + "window=1ms";

    private static WorkloadResult simulate(String tuning, boolean memoryModel) {
        SimulatedRun run = WorkloadRunner.simulate(EventPipeStress.NAME, SATURATED, Tuning.parse(tuning),
                Simulation.builder(MACBOOK).seed(1).memoryModel(memoryModel));
        assertThat(run.simulation().completed()).as(run.simulation().report()).isTrue();
        return run.result();
    }

    @Test
    void shouldAccountForEveryEventWhenLimitIsSaturated() {
        for (String tuning : new String[] {"current,reservation=under-lock", "current"}) {
            WorkloadResult result = simulate(tuning, false);

            assertAccountedFor(tuning, result);
            assertThat(result.metric("writtenTotal")).as(tuning).isPositive();
            assertThat(result.metric("dropped")).as("saturated: drops in the window, " + tuning).isPositive();
            assertThat(result.metric("efficiency")).as(tuning).isBetween(0.0, 1.0)
                    .isEqualTo(result.metric("read") / (result.metric("read") + result.metric("dropped")));
            assertThat(result.operations()).isEqualTo((long) result.metric("read"));
        }
    }

    @Test
    void shouldTakeManagerLockOnDropPathOnlyWhenReservingUnderLock() {
        WorkloadResult underLock = simulate("current,reservation=under-lock", false);
        WorkloadResult lockless = simulate("current", false);

        assertThat(underLock.metric("dropPathLockAcquisitions")).as("the whole run's drops, the window's among them")
                .isGreaterThanOrEqualTo(underLock.metric("dropped"));
        assertThat(lockless.metric("dropPathLockAcquisitions")).isZero();
        assertThat(lockless.metric("lockAcquisitions")).isLessThan(underLock.metric("lockAcquisitions") / 100);
    }

    /**
     * runtime #50797's lock caravan, with the memory model on (a lock word that moves between
     * cores costs what it would): writers that fail their reservation without the lock attempt
     * more events than writers that queue on it to fail.
     */
    @Test
    void shouldAttemptMoreEventsWithLocklessReservationWhenSharedAccessesCost() {
        WorkloadResult underLock = simulate("current,reservation=under-lock", true);
        WorkloadResult lockless = simulate("current", true);

        assertThat(lockless.metric("attempted")).isGreaterThan(1.5 * underLock.metric("attempted"));
        assertAccountedFor("current, memory model", lockless);
        assertAccountedFor("under-lock, memory model", underLock);
    }

    /**
     * With a stream (the published setup: a reading process behind a pipe), every event the
     * streaming thread sent reaches the reading process as whole 216-byte records (16-byte
     * header and 200-byte payload), a read counts when it arrives there, and both sides of the
     * stream are threads of the run (6 writers, so that the 8 threads have the 8 processors).
     */
    @Test
    void shouldCarryEveryEventThroughTheStreamToTheReadingProcess() {
        for (String tuning : new String[] {"current,reservation=under-lock", "current"}) {
            SimulatedRun run = WorkloadRunner.simulate(EventPipeStress.NAME, STREAMED,
                    Tuning.parse(tuning), Simulation.builder(MACBOOK).seed(1).memoryModel(true));
            assertThat(run.simulation().completed()).as(run.simulation().report()).isTrue();
            WorkloadResult result = run.result();

            assertAccountedFor(tuning + ", stream", result);
            assertThat(result.metric("streamBytes")).as(tuning)
                    .isEqualTo(result.metric("writtenTotal") * (EventPipeStress.EVENT_HEADER_BYTES + 200));
            assertThat(result.metric("read")).as(tuning).isPositive()
                    .isLessThanOrEqualTo(result.metric("readTotal"));
            assertThat(result.parameters()).contains("stream=8kb");
            assertThat(run.simulation().metrics().thread("stream-reader").picos(Activity.PARKED))
                    .as("the reading process waits for the stream: " + tuning).isPositive();
        }
    }

    @Test
    void shouldNameNoneAndASizeWhenTheStreamIsNotValid() {
        assertThat(Workloads.create(EventPipeStress.NAME, SATURATED).parameters()).contains("stream=none");
        assertThatThrownBy(() -> Workloads.create(EventPipeStress.NAME, SATURATED + ",stream=fast"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("eventpipe-stress: stream = 'fast' is not valid; valid: none, or a kernel buffer of 1 "
                        + "byte to 64mb (e.g. 16kb, 8kb)");
    }

    /** Over the whole run: every written event read once, every drop seen by the reader as a gap. */
    private static void assertAccountedFor(String what, WorkloadResult result) {
        assertThat(result.metric("readTotal")).as("%s: events read vs written", what)
                .isEqualTo(result.metric("writtenTotal"));
        assertThat(result.metric("gapsSeen")).as("%s: drops seen as gaps vs dropped", what)
                .isEqualTo(result.metric("droppedTotal"));
        assertThat(result.metric("written")).as("%s: the window's writes are among the run's", what)
                .isLessThanOrEqualTo(result.metric("writtenTotal"));
        assertThat(result.metric("dropped")).as("%s: the window's drops are among the run's", what)
                .isLessThanOrEqualTo(result.metric("droppedTotal"));
    }

    @Test
    void shouldCountAttemptsWhenScoreIsAttempted() {
        Workload attempts = Workloads.create(EventPipeStress.NAME, SATURATED + ",score=attempted");

        WorkloadResult result = WorkloadRunner.simulate(attempts, Tuning.current(), MACBOOK, 1).result();

        assertThat(result.operations()).isEqualTo((long) result.metric("attempted"));
        assertThat(result.parameters()).contains("score=attempted").contains("limit=1mb");
    }

    /**
     * What the score counts does not change the run (ScoreChoice): both choices give one event-log
     * digest, and each is the shared run counted its way.
     */
    @Test
    void shouldRunTheSameSimulationWhateverTheScoreCounts() {
        Simulation.Builder simulation = Simulation.builder(MACBOOK).seed(3).memoryModel(true);
        SimulatedRun read = WorkloadRunner.simulate(EventPipeStress.NAME, SATURATED + ",score=read", Tuning.current(),
                simulation);
        SimulatedRun attempted = WorkloadRunner.simulate(EventPipeStress.NAME, SATURATED + ",score=attempted",
                Tuning.current(), Simulation.builder(MACBOOK).seed(3).memoryModel(true));
        EventPipeStress readWorkload = (EventPipeStress) Workloads.create(EventPipeStress.NAME, SATURATED + ",score=read");
        EventPipeStress attemptedWorkload = (EventPipeStress) Workloads.create(EventPipeStress.NAME,
                SATURATED + ",score=attempted");

        assertThat(attempted.simulation().digest()).isEqualTo(read.simulation().digest());
        assertThat(attemptedWorkload.sharedRunParameters()).isEqualTo(readWorkload.sharedRunParameters())
                .isEqualTo(readWorkload.parameters());
        assertThat(attemptedWorkload.scoredFrom(read.result())).isEqualTo(attempted.result());
        assertThat(readWorkload.scoredFrom(read.result())).isEqualTo(read.result());
        assertThat(attempted.result().operations()).isEqualTo((long) read.result().metric("attempted"))
                .isGreaterThan(read.result().operations());
    }
}
