package io.spinlab.model.tuning;

import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * One value for every {@link Knob}: which heuristic each primitive uses. Immutable.
 *
 * <p>The {@link Generation}s bundle the knobs as each runtime shipped them; {@code current} names
 * the newest ({@code net6}), {@code legacy} the oldest ({@code netcore2.0}). A tuning is written
 * {@code preset[,knob=value...]}, e.g. {@code netcore2.0,spin=unscaled} or {@code current,pause=raw}:
 * a generation, then the knobs changed from it.
 */
public record Tuning(
        SpinPolicy spin,
        SpinWaitShape spinWait,
        PauseMode pause,
        SpinLockPolicy spinLock,
        MonitorPolicy monitor,
        ReservationPolicy reservation,
        GlobalQueuePolicy globalQueue,
        QueueSpinPolicy queueSpin,
        StackSpinPolicy stackSpin,
        ThreadRequestPolicy threadRequests,
        SemaphorePolicy semaphore,
        NativeSpinLockPolicy nativeSpinLock) {

    /** Alias of the newest generation. */
    public static final String CURRENT_ALIAS = "current";
    /** Alias of the oldest generation. */
    public static final String LEGACY_ALIAS = "legacy";

    public Tuning {
        Objects.requireNonNull(spin, "spin");
        Objects.requireNonNull(spinWait, "spinwait");
        Objects.requireNonNull(pause, "pause");
        Objects.requireNonNull(spinLock, "spinlock");
        Objects.requireNonNull(monitor, "monitor");
        Objects.requireNonNull(reservation, "reservation");
        Objects.requireNonNull(globalQueue, "global-queue");
        Objects.requireNonNull(queueSpin, "queue-spin");
        Objects.requireNonNull(stackSpin, "stack-spin");
        Objects.requireNonNull(threadRequests, "thread-requests");
        Objects.requireNonNull(semaphore, "semaphore");
        Objects.requireNonNull(nativeSpinLock, "native-spinlock");
    }

    /** The oldest generation, .NET Core 2.0 ({@code netcore2.0}). */
    public static Tuning legacy() {
        return Generation.LEGACY.tuning();
    }

    /** The newest generation and production default, .NET 6 ({@code net6}). */
    public static Tuning current() {
        return Generation.CURRENT.tuning();
    }

    /** The names {@link #parse} accepts as a preset: every generation, then the two aliases. */
    public static List<String> presetNames() {
        List<String> names = new ArrayList<>(Generation.names());
        names.add(CURRENT_ALIAS);
        names.add(LEGACY_ALIAS);
        return List.copyOf(names);
    }

    /**
     * Parses {@code preset}, {@code knob=value}, or a comma-separated mix; knob settings start
     * from {@code current} unless a preset comes first. Throws with the valid names on bad input.
     */
    public static Tuning parse(String text) {
        Objects.requireNonNull(text, "tuning");
        String trimmed = text.strip();
        if (trimmed.isEmpty()) {
            throw new IllegalArgumentException("empty tuning; expected a preset (" + String.join(", ", presetNames())
                    + ") and/or knob=value settings");
        }
        Tuning result = current();
        String[] parts = trimmed.split(",", -1);
        for (int i = 0; i < parts.length; i++) {
            String part = parts[i].strip();
            if (part.isEmpty()) {
                throw new IllegalArgumentException("empty setting in tuning '" + text + "'; expected a preset ("
                        + String.join(", ", presetNames()) + ") and/or knob=value settings separated by commas");
            }
            int eq = part.indexOf('=');
            if (eq < 0) {
                if (i != 0) {
                    throw new IllegalArgumentException("preset '" + part + "' must come first in '" + text + "'");
                }
                result = preset(part);
            } else {
                Knob knob = Knob.byName(part.substring(0, eq).strip());
                result = result.with(knob, knob.parseValue(part.substring(eq + 1).strip()));
            }
        }
        return result;
    }

    /** A preset by name: a generation, {@code current} or {@code legacy}. */
    public static Tuning preset(String name) {
        if (CURRENT_ALIAS.equals(name)) {
            return current();
        }
        if (LEGACY_ALIAS.equals(name)) {
            return legacy();
        }
        Generation generation = Generation.byNameOrNull(name);
        if (generation == null) {
            throw new IllegalArgumentException("unknown tuning preset '" + name + "'; valid presets: "
                    + String.join(", ", presetNames()));
        }
        return generation.tuning();
    }

    /** This tuning with one knob changed; the value must be of the knob's type. */
    public Tuning with(Knob knob, Enum<?> value) {
        Objects.requireNonNull(value, "value");
        if (!knob.valueType().isInstance(value)) {
            throw new IllegalArgumentException("value " + value + " is not a value of knob '" + knob.knobName()
                    + "'; valid values: " + String.join(", ", knob.valueNames()));
        }
        Map<Knob, Enum<?>> values = asMap();
        values.put(knob, value);
        return new Tuning((SpinPolicy) values.get(Knob.SPIN), (SpinWaitShape) values.get(Knob.SPINWAIT),
                (PauseMode) values.get(Knob.PAUSE), (SpinLockPolicy) values.get(Knob.SPINLOCK),
                (MonitorPolicy) values.get(Knob.MONITOR), (ReservationPolicy) values.get(Knob.RESERVATION),
                (GlobalQueuePolicy) values.get(Knob.GLOBAL_QUEUE), (QueueSpinPolicy) values.get(Knob.QUEUE_SPIN),
                (StackSpinPolicy) values.get(Knob.STACK_SPIN), (ThreadRequestPolicy) values.get(Knob.THREAD_REQUESTS),
                (SemaphorePolicy) values.get(Knob.SEMAPHORE),
                (NativeSpinLockPolicy) values.get(Knob.NATIVE_SPINLOCK));
    }

    /** This tuning with {@code knob=value} applied, both given by their command-line names. */
    public Tuning with(String knobName, String valueName) {
        Knob knob = Knob.byName(knobName);
        return with(knob, knob.parseValue(valueName));
    }

    /** The value of one knob. */
    public Enum<?> get(Knob knob) {
        return switch (knob) {
            case SPIN -> spin;
            case SPINWAIT -> spinWait;
            case PAUSE -> pause;
            case SPINLOCK -> spinLock;
            case MONITOR -> monitor;
            case RESERVATION -> reservation;
            case GLOBAL_QUEUE -> globalQueue;
            case QUEUE_SPIN -> queueSpin;
            case STACK_SPIN -> stackSpin;
            case THREAD_REQUESTS -> threadRequests;
            case SEMAPHORE -> semaphore;
            case NATIVE_SPINLOCK -> nativeSpinLock;
        };
    }

    /** Every knob with its value, in knob order. */
    public Map<Knob, Enum<?>> asMap() {
        Map<Knob, Enum<?>> map = new EnumMap<>(Knob.class);
        for (Knob knob : Knob.values()) {
            map.put(knob, get(knob));
        }
        return map;
    }

    /**
     * The shortest text that {@link #parse} turns back into this tuning: the nearest generation
     * followed by the knobs that differ from it. Of equally near generations the oldest, the one
     * that first shipped these values: {@code net5}'s knobs are written {@code netcore2.1}.
     */
    public String describe() {
        Generation nearest = null;
        List<String> nearestDiffs = null;
        for (Generation generation : Generation.values()) {
            List<String> diffs = differences(generation.tuning());
            if (nearestDiffs == null || diffs.size() < nearestDiffs.size()) {
                nearest = generation;
                nearestDiffs = diffs;
            }
        }
        List<String> parts = new ArrayList<>();
        parts.add(nearest.generationName());
        parts.addAll(nearestDiffs);
        return String.join(",", parts);
    }

    private List<String> differences(Tuning base) {
        List<String> diffs = new ArrayList<>();
        for (Knob knob : Knob.values()) {
            if (get(knob) != base.get(knob)) {
                diffs.add(knob.knobName() + "=" + Knob.nameOf(get(knob)));
            }
        }
        return diffs;
    }

    @Override
    public String toString() {
        return describe();
    }
}
