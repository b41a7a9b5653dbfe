package io.spinlab.model.tuning;

import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * One value for every {@link Knob}: which heuristic each primitive uses. Immutable.
 *
 * <p>Two presets bundle the knobs by runtime generation: {@link #legacy()} approximates
 * .NET Core 2.0, {@link #current()} .NET 6 and later (the production default). A tuning is
 * written {@code preset[,knob=value...]}, e.g. {@code current,spin=proc-scaled,pause=raw}.
 */
public record Tuning(
        SpinPolicy spin,
        PauseMode pause,
        SpinLockPolicy spinLock,
        MonitorPolicy monitor,
        ReservationPolicy reservation,
        GlobalQueuePolicy globalQueue) {

    private static final Tuning LEGACY = new Tuning(SpinPolicy.PROC_SCALED, PauseMode.RAW,
            SpinLockPolicy.SPINNING_FACTOR, MonitorPolicy.CONVOY, ReservationPolicy.UNDER_LOCK,
            GlobalQueuePolicy.QUEUE_SEGMENT);
    private static final Tuning CURRENT = new Tuning(SpinPolicy.SPINONCE, PauseMode.NORMALIZED,
            SpinLockPolicy.SPINWAIT, MonitorPolicy.BARGING, ReservationPolicy.LOCKLESS,
            GlobalQueuePolicy.CONCURRENT_QUEUE);

    public Tuning {
        Objects.requireNonNull(spin, "spin");
        Objects.requireNonNull(pause, "pause");
        Objects.requireNonNull(spinLock, "spinlock");
        Objects.requireNonNull(monitor, "monitor");
        Objects.requireNonNull(reservation, "reservation");
        Objects.requireNonNull(globalQueue, "global-queue");
    }

    /** ≈ .NET Core 2.0: processor-scaled spin, raw PAUSE, SPINNING_FACTOR, convoy, locked reservation, QueueSegment. */
    public static Tuning legacy() {
        return LEGACY;
    }

    /** ≈ .NET 6+: SpinOnce spin, normalized PAUSE, SpinWait spin lock, barging, lockless, ConcurrentQueue. */
    public static Tuning current() {
        return CURRENT;
    }

    /** The names of the presets accepted by {@link #parse}. */
    public static List<String> presetNames() {
        return List.of("legacy", "current");
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
        Tuning result = CURRENT;
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

    /** A preset by name. */
    public static Tuning preset(String name) {
        return switch (name) {
            case "legacy" -> LEGACY;
            case "current" -> CURRENT;
            default -> throw new IllegalArgumentException("unknown tuning preset '" + name + "'; valid presets: "
                    + String.join(", ", presetNames()));
        };
    }

    /** This tuning with one knob changed; the value must be of the knob's type. */
    public Tuning with(Knob knob, Enum<?> value) {
        Objects.requireNonNull(value, "value");
        if (!knob.valueType().isInstance(value)) {
            throw new IllegalArgumentException("value " + value + " is not a value of knob '" + knob.knobName()
                    + "'; valid values: " + String.join(", ", knob.valueNames()));
        }
        return switch (knob) {
            case SPIN -> new Tuning((SpinPolicy) value, pause, spinLock, monitor, reservation, globalQueue);
            case PAUSE -> new Tuning(spin, (PauseMode) value, spinLock, monitor, reservation, globalQueue);
            case SPINLOCK -> new Tuning(spin, pause, (SpinLockPolicy) value, monitor, reservation, globalQueue);
            case MONITOR -> new Tuning(spin, pause, spinLock, (MonitorPolicy) value, reservation, globalQueue);
            case RESERVATION -> new Tuning(spin, pause, spinLock, monitor, (ReservationPolicy) value, globalQueue);
            case GLOBAL_QUEUE -> new Tuning(spin, pause, spinLock, monitor, reservation, (GlobalQueuePolicy) value);
        };
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
            case PAUSE -> pause;
            case SPINLOCK -> spinLock;
            case MONITOR -> monitor;
            case RESERVATION -> reservation;
            case GLOBAL_QUEUE -> globalQueue;
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
     * The shortest text that {@link #parse} turns back into this tuning: the nearer preset
     * followed by the knobs that differ from it.
     */
    public String describe() {
        List<String> fromLegacy = differences(LEGACY);
        List<String> fromCurrent = differences(CURRENT);
        boolean legacyCloser = fromLegacy.size() < fromCurrent.size();
        List<String> parts = new ArrayList<>();
        parts.add(legacyCloser ? "legacy" : "current");
        parts.addAll(legacyCloser ? fromLegacy : fromCurrent);
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
