package io.spinlab.model.tuning;

import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * The heuristics whose history the .NET runtime changed in public, each a knob with named values.
 * Every value has a stable command-line name ({@code spin=proc-scaled}).
 */
public enum Knob {
    /** The spin phase before blocking in ManualResetEvent and Task. */
    SPIN("spin", SpinPolicy.class),
    /** The iteration schedule of SpinWait.SpinOnce. */
    SPINWAIT("spinwait", SpinWaitShape.class),
    /** What Thread.SpinWait(n) means: raw PAUSEs, CoreRT's scaled counts, or normalized ~37 ns yields. */
    PAUSE("pause", PauseMode.class),
    /** The SpinLock slow path. */
    SPINLOCK("spinlock", SpinLockPolicy.class),
    /** The Monitor-style lock's handoff. */
    MONITOR("monitor", MonitorPolicy.class),
    /** How the event buffer manager reserves bytes against its global limit. */
    RESERVATION("reservation", ReservationPolicy.class),
    /** The thread pool's global queue. */
    GLOBAL_QUEUE("global-queue", GlobalQueuePolicy.class),
    /** ConcurrentQueue's spin on a lost race. */
    QUEUE_SPIN("queue-spin", QueueSpinPolicy.class),
    /** ConcurrentStack's spin on a lost CAS. */
    STACK_SPIN("stack-spin", StackSpinPolicy.class),
    /** How the thread pool's queued work asks for workers. */
    THREAD_REQUESTS("thread-requests", ThreadRequestPolicy.class),
    /** SemaphoreSlim's spin before blocking and its lock use. */
    SEMAPHORE("semaphore", SemaphorePolicy.class),
    /** CoreCLR's native spin lock (EventPipe's buffer-manager lock): a raw PAUSE or a normalized yield per poll. */
    NATIVE_SPINLOCK("native-spinlock", NativeSpinLockPolicy.class);

    private final String knobName;
    private final Class<? extends Enum<?>> valueType;

    Knob(String knobName, Class<? extends Enum<?>> valueType) {
        this.knobName = knobName;
        this.valueType = valueType;
    }

    /** The command-line name, e.g. {@code global-queue}. */
    public String knobName() {
        return knobName;
    }

    /** The enum whose constants are this knob's values. */
    public Class<? extends Enum<?>> valueType() {
        return valueType;
    }

    /** Command-line names of the values, in declaration order. */
    public List<String> valueNames() {
        return Arrays.stream(valueType.getEnumConstants()).map(Knob::nameOf).toList();
    }

    /** Parses a value of this knob by its command-line name. */
    public Enum<?> parseValue(String text) {
        for (Enum<?> value : valueType.getEnumConstants()) {
            if (nameOf(value).equals(text)) {
                return value;
            }
        }
        throw new IllegalArgumentException("unknown value '" + text + "' for knob '" + knobName
                + "'; valid values: " + String.join(", ", valueNames()));
    }

    /** Looks a knob up by its command-line name. */
    public static Knob byName(String name) {
        for (Knob knob : values()) {
            if (knob.knobName.equals(name)) {
                return knob;
            }
        }
        throw new IllegalArgumentException("unknown knob '" + name + "'; valid knobs: "
                + String.join(", ", Arrays.stream(values()).map(Knob::knobName).toList()));
    }

    /** The command-line name of a knob value: the constant's name, lower case, dashes for underscores. */
    public static String nameOf(Enum<?> value) {
        return value.name().toLowerCase(Locale.ROOT).replace('_', '-');
    }
}
