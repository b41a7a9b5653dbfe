package io.spinlab.model.tuning;

import java.util.Arrays;
import java.util.List;

/**
 * The runtime generations spinlab models: for each, the value every {@link Knob} had in the code
 * that shipped, so that a published before/after comparison runs exactly the two generations (or
 * the one change) its pull request measured. Oldest first, CoreRT's 2019 code after netcore3.0,
 * whose CoreLib previews it shared.
 *
 * <p>The sources of each value are cited in the README's generation table and in
 * {@code impl/GENERATION-SOURCES.md}; where a detail could not be read at a commit, both say so.
 * {@code netcore3.0} and {@code net5} differ in none of the knobs spinlab has.
 */
public enum Generation {
    /** .NET Core 2.0, mid-2017, before dotnet/coreclr #13556. */
    NETCORE2_0("netcore2.0", "mid-2017 CoreCLR, before dotnet/coreclr #13556",
            new Tuning(SpinPolicy.PROC_SCALED, SpinWaitShape.EXPONENTIAL, PauseMode.RAW,
                    SpinLockPolicy.SPINNING_FACTOR, MonitorPolicy.CONVOY, ReservationPolicy.UNDER_LOCK,
                    GlobalQueuePolicy.CONCURRENT_QUEUE, QueueSpinPolicy.SLEEP_AT_20, StackSpinPolicy.SLEEP_AT_20,
                    ThreadRequestPolicy.PER_ITEM, SemaphorePolicy.UNTIL_YIELD,
                    NativeSpinLockPolicy.RAW)),
    /** .NET Core 2.0 with dotnet/coreclr #13556 (#13631 in release/2.0.0): the spin's processor multiply gone. */
    NETCORE2_0_13556("netcore2.0-13556", "netcore2.0 with dotnet/coreclr #13556 / #13631",
            NETCORE2_0.tuning.with(Knob.SPIN, SpinPolicy.UNSCALED)),
    /** .NET Core 2.1: normalized yields and retuned loops (#13670), barging Monitor (#14216). */
    NETCORE2_1("netcore2.1", "CoreCLR after dotnet/coreclr #13670 and #14216",
            new Tuning(SpinPolicy.SPINONCE, SpinWaitShape.CAPPED, PauseMode.NORMALIZED_ONCE,
                    SpinLockPolicy.SPINWAIT, MonitorPolicy.BARGING, ReservationPolicy.UNDER_LOCK,
                    GlobalQueuePolicy.CONCURRENT_QUEUE, QueueSpinPolicy.SLEEP_AT_20, StackSpinPolicy.SLEEP_AT_20,
                    ThreadRequestPolicy.PER_ITEM, SemaphorePolicy.SPINONCE,
                    NativeSpinLockPolicy.RAW)),
    /**
     * .NET Core 3.0: no Sleep(1) in the collections' CAS-retry spins (coreclr #21722, corefx #34288),
     * a normalized yield per poll in the native spin lock (coreclr #21586).
     */
    NETCORE3_0("netcore3.0", "netcore2.1 without Sleep(1) in the collections' retry spins (coreclr #21722), "
            + "normalized native spin lock (coreclr #21586)",
            NETCORE2_1.tuning.with(Knob.QUEUE_SPIN, QueueSpinPolicy.NO_SLEEP).with(Knob.STACK_SPIN,
                    StackSpinPolicy.NO_SLEEP).with(Knob.NATIVE_SPINLOCK, NativeSpinLockPolicy.NORMALIZED)),
    /**
     * CoreRT in June 2019, before dotnet/corert #7569: the shared CoreLib of the 3.0 previews with
     * the retuned SpinWait shape in raw PAUSEs, and CoreRT's own managed Monitor ({@code Lock.cs}).
     */
    CORERT_2019_BEFORE("corert-2019-before",
            "CoreRT before dotnet/corert #7569: capped SpinWait, raw PAUSE, cap 64, CoreRT's Lock",
            NETCORE3_0.tuning.with(Knob.PAUSE, PauseMode.RAW).with(Knob.MONITOR, MonitorPolicy.CORERT_LOCK)),
    /** CoreRT after dotnet/corert #7569: every PAUSE count through the pre-Skylake shim. */
    CORERT_2019_AFTER("corert-2019-after", "CoreRT after dotnet/corert #7569: counts scaled by yields / 8, CoreRT's Lock",
            NETCORE3_0.tuning.with(Knob.PAUSE, PauseMode.PRESKYLAKE_SCALED).with(Knob.MONITOR,
                    MonitorPolicy.CORERT_LOCK)),
    /** .NET 5. */
    NET5("net5", "as netcore3.0 in every modelled knob", NETCORE3_0.tuning),
    /**
     * .NET 6, the production default: re-sampled PAUSE (#55295), lockless EventPipe reservation
     * (#50797), ConcurrentQueue's segment sleeping again on lost races (#44265).
     */
    NET6("net6", "dotnet/runtime #55295, #50797, #44265: re-sampled PAUSE, lockless reservation, queue Sleep(1)",
            NET5.tuning.with(Knob.PAUSE, PauseMode.NORMALIZED).with(Knob.RESERVATION, ReservationPolicy.LOCKLESS)
                    .with(Knob.QUEUE_SPIN, QueueSpinPolicy.SLEEP_AT_10));

    /** The newest generation, named {@code current} too. */
    public static final Generation CURRENT = NET6;
    /** The oldest generation, named {@code legacy} too. */
    public static final Generation LEGACY = NETCORE2_0;

    private final String generationName;
    private final String summary;
    private final Tuning tuning;

    Generation(String generationName, String summary, Tuning tuning) {
        this.generationName = generationName;
        this.summary = summary;
        this.tuning = tuning;
    }

    /** The name a user types, e.g. {@code netcore2.0-13556}. */
    public String generationName() {
        return generationName;
    }

    /** One line: what this generation is. */
    public String summary() {
        return summary;
    }

    /** Every knob as this generation shipped it. */
    public Tuning tuning() {
        return tuning;
    }

    /** Names of all generations, oldest first. */
    public static List<String> names() {
        return Arrays.stream(values()).map(Generation::generationName).toList();
    }

    /** A generation by name, or null. */
    static Generation byNameOrNull(String name) {
        for (Generation generation : values()) {
            if (generation.generationName.equals(name)) {
                return generation;
            }
        }
        return null;
    }
}
