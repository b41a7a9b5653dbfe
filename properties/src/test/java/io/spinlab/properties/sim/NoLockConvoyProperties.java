package io.spinlab.properties.sim;

import org.junit.jupiter.api.Timeout;
import java.util.concurrent.TimeUnit;

import io.spinlab.impl.lock.MonitorLock;
import io.spinlab.model.machine.MachinePresets;
import io.spinlab.model.machine.MachineProfile;
import io.spinlab.model.tuning.Tuning;
import io.spinlab.properties.engine.Gen;
import io.spinlab.properties.engine.Gens;
import io.spinlab.properties.engine.Property;
import io.spinlab.properties.engine.PropertyFailure;
import io.spinlab.properties.mutation.Mutation;
import io.spinlab.sim.workload.WorkloadRunner;
import io.spinlab.sim.engine.Simulation;
import org.junit.jupiter.api.Test;

import java.util.Locale;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

/**
 * No lock convoy: with {@code monitor=barging} a contended Monitor-style lock hands over at the
 * speed of the threads that want it, whatever a wake-up costs; with {@code monitor=convoy}
 * every handoff waits for a wake-up, so throughput falls as wake-up latency grows
 * (dotnet/coreclr #13978). Checked over generated wake-up latencies and processor counts: the
 * score at a slow wake-up must stay within half of the score at a fast one.
 *
 * <p>The planted counterpart is the real barging Monitor with one check skipped, which makes it
 * a convoy ({@link #shouldCatchABargingMonitorWhoseStarvationGuardFiresAtOnce}). Not checked here
 * any more: that {@code convoy} itself fails the property. That held for the simple
 * handoff convoy spinlab used to model; the exact 2017 AwareLock first spins raw PAUSEs for tens
 * of milliseconds (76 ms on an 8-processor Skylake) before a thread blocks, and a thread that hands
 * the lock on spins that long again before it queues, so its throughput is set by the spin, not by
 * the wake-up (tried: a 1 ms window after the first spin, a window of two spins, one processor —
 * none depends on the wake-up by 2×). The convoy's behaviour is pinned in
 * MonitorAlgorithmsInVirtualTimeTest and measured by the monitor-convoy experiment.
 */
@Timeout(value = 10, unit = TimeUnit.MINUTES) // long on purpose: above the module's 60 s default
class NoLockConvoyProperties {

    static final MachineProfile BASE = MachinePresets.byName("skylake-i7-6700");
    static final long FAST_WAKE_NS = 1_000;
    /**
     * Busy time inside the lock. With none, spinning contenders always got the lock before their
     * spin ran out, so nobody ever blocked and a wake-up could not matter (since bytecode costs the
     * measured 0.2 cycles instead of one, the planted convoy scored 10,558 acquisitions/ms at every
     * wake-up latency, like the real lock). A 1 µs hold makes waiters block, as in a lock held for
     * real work: the real barging lock then scores 898–903 at a 1 µs and a 50 µs wake-up, the plant
     * 439 and 20 (2 processors, seed 1).
     */
    static final String HOLD = "1us";

    record Case(long wakeLatencyNs, int processors) {
    }

    static Gen<Case> cases() {
        return Gens.zip(Gens.choose(2_000L, 5_000L, 20_000L, 50_000L), Gens.choose(2, 4, 8), Case::new);
    }

    static double score(Tuning tuning, int processors, long wakeLatencyNs) {
        return score(tuning, processors, wakeLatencyNs, null);
    }

    /** The score with the real classes, or with {@code mutant} planted when it is not null. */
    static double score(Tuning tuning, int processors, long wakeLatencyNs, Mutation mutant) {
        MachineProfile machine = SimGens.vary(BASE, BASE.pauseCycles(), processors).toBuilder()
                .wakeLatencyNs(wakeLatencyNs).build();
        long warmup = 200_000;
        // With the memory model on: the lock's own CASes and cache-line transfers cost time, so a
        // handoff takes as long as it really would (without it, code between Platform calls is free).
        Simulation.Builder simulation = Simulation.builder(machine).seed(1).memoryModel(true);
        if (mutant != null) {
            ScenarioRunner.plant(simulation, mutant);
        }
        return WorkloadRunner.simulate("monitor-throughput", "threads=2pc,hold=" + HOLD + ",warmup=" + warmup
                + "ns,window=1ms", tuning,
                simulation).opsPerMs();
    }

    static void assertIndependentOfWakeLatency(Tuning tuning, Case c) {
        assertIndependentOfWakeLatency(tuning, c, null);
    }

    static void assertIndependentOfWakeLatency(Tuning tuning, Case c, Mutation mutant) {
        double fast = score(tuning, c.processors(), FAST_WAKE_NS, mutant);
        double slow = score(tuning, c.processors(), c.wakeLatencyNs(), mutant);
        assertThat(slow).as(String.format(Locale.ROOT, "%s on %d processors: %.1f acquisitions/ms with a %d ns "
                        + "wake-up, %.1f with %d ns", tuning.describe(), c.processors(), slow, c.wakeLatencyNs(), fast,
                FAST_WAKE_NS)).isGreaterThanOrEqualTo(fast / 2);
    }

    @Test
    void bargingShouldKeepHandoffIndependentOfWakeLatency() {
        Property.forAll(cases()).named("barging: no convoy").tries(Math.min(24, DeterminismProperties.triesFromBuild()))
                .run(c -> assertIndependentOfWakeLatency(Tuning.current(), c));
    }

    /**
     * The planted counterpart, run through the same property: the real barging Monitor with its
     * starvation check skipped (in {@code shouldStopPreemptingWaiters}, the branch taken while the
     * first waiter has waited less than 100 ms is never taken), so the guard fires as soon as anyone
     * waits. Arriving and spinning threads then leave a free lock to the waiters and every handoff
     * waits for a wake-up: the convoy that dotnet/coreclr #14216 removed.
     */
    @Test
    void shouldCatchABargingMonitorWhoseStarvationGuardFiresAtOnce() {
        Mutation mutant = Mutation.branchNeverTaken(Mutation.inPackage(MonitorLock.class, "BargingAwareLock"),
                "shouldStopPreemptingWaiters", "IFLT", 0);
        PropertyFailure failure = catchThrowableOfType(PropertyFailure.class, () -> Property.forAll(cases())
                .named("planted: " + mutant).seed(1).tries(24)
                .run(c -> assertIndependentOfWakeLatency(Tuning.current(), c, mutant)));
        assertThat(failure).as("a Monitor that never lets arrivals barge past a waiter must break the property")
                .isNotNull();
        System.out.println(failure.getMessage());
        assertThat(failure.getCause()).hasMessageContaining("acquisitions/ms with a");
        PlantedCatch.<Case>assertTheUnplantedCodePasses(failure,
                c -> assertIndependentOfWakeLatency(Tuning.current(), c, null));
    }
}
