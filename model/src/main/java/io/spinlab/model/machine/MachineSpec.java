package io.spinlab.model.machine;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * A machine written as one short line that the command line and the test API accept back: a
 * preset name, then the fields that differ from it, {@code skylake-i7-6700 pauseCycles=300
 * logicalProcessors=64}.
 *
 * <p>{@link #describe} writes any profile this way (never as a record dump, however long its
 * description); {@link #parse} reads it. The name and the description are labels that change no
 * simulated cost, so they are not written; everything else round-trips exactly.
 */
public final class MachineSpec {

    /*
     * Implementation notes
     *
     * The base of a description is the preset with the profile's own name when there is one,
     * otherwise the preset from which the fewest fields differ (ties: the first in
     * MachinePresets.all()), so that a profile from a file comes out as its nearest preset plus
     * a few changes. physicalCores and logicalProcessors are written and applied together
     * (withProcessors): applied one at a time, the builder keeps the threads per core and would
     * move the other.
     */

    private MachineSpec() {
    }

    /**
     * The profile that {@code text} names: a preset, optionally followed by {@code field=value}
     * settings separated by spaces.
     *
     * @throws IllegalArgumentException for an unknown preset or field, or a bad value, naming it
     */
    public static MachineProfile parse(String text) {
        Objects.requireNonNull(text, "text");
        String[] words = text.strip().split("\\s+");
        if (words.length == 0 || words[0].isEmpty()) {
            throw new IllegalArgumentException("empty machine; expected a preset (" + String.join(", ",
                    MachinePresets.names()) + ") optionally followed by field=value settings");
        }
        MachineProfile profile = MachinePresets.byName(words[0]);
        Map<MachineField, String> settings = new LinkedHashMap<>();
        for (int i = 1; i < words.length; i++) {
            int eq = words[i].indexOf('=');
            if (eq <= 0) {
                throw new IllegalArgumentException("machine setting '" + words[i] + "' in '" + text.strip()
                        + "' must be field=value; fields: " + String.join(", ", MachineField.names()));
            }
            MachineField field = MachineField.byName(words[i].substring(0, eq));
            if (settings.put(field, words[i].substring(eq + 1)) != null) {
                throw new IllegalArgumentException("machine field '" + field.fieldName() + "' is set twice in '"
                        + text.strip() + "'");
            }
        }
        return apply(profile, settings);
    }

    /** {@code base} with the given field settings applied (processor counts together). */
    public static MachineProfile apply(MachineProfile base, Map<MachineField, String> settings) {
        MachineProfile profile = base;
        String cores = settings.get(MachineField.PHYSICAL_CORES);
        String logical = settings.get(MachineField.LOGICAL_PROCESSORS);
        for (Map.Entry<MachineField, String> setting : settings.entrySet()) {
            MachineField field = setting.getKey();
            boolean processorField = field == MachineField.PHYSICAL_CORES || field == MachineField.LOGICAL_PROCESSORS;
            if (!processorField || cores == null || logical == null) {
                profile = profile.withField(field, setting.getValue());
            }
        }
        if (cores != null && logical != null) {
            profile = profile.withProcessors(wholeNumber(MachineField.PHYSICAL_CORES, cores),
                    wholeNumber(MachineField.LOGICAL_PROCESSORS, logical));
        }
        return profile;
    }

    /** {@code profile} as a preset name followed by the fields that differ from it. */
    public static String describe(MachineProfile profile) {
        MachineProfile base = nearestPreset(profile);
        List<String> words = new ArrayList<>();
        words.add(base.name());
        for (String change : changes(base, profile)) {
            words.add(change);
        }
        return String.join(" ", words);
    }

    /** The {@code field=value} settings that turn {@code base} into {@code profile}, in field order. */
    public static List<String> changes(MachineProfile base, MachineProfile profile) {
        List<String> changes = new ArrayList<>();
        boolean processorsDiffer = base.physicalCores() != profile.physicalCores()
                || base.logicalProcessors() != profile.logicalProcessors();
        for (MachineField field : MachineField.values()) {
            if (field == MachineField.NAME || field == MachineField.DESCRIPTION) {
                continue;
            }
            boolean processorField = field == MachineField.PHYSICAL_CORES || field == MachineField.LOGICAL_PROCESSORS;
            boolean differs = processorField ? processorsDiffer : !field.valueIn(base).equals(field.valueIn(profile));
            if (differs) {
                changes.add(field.fieldName() + "=" + field.text(profile));
            }
        }
        return changes;
    }

    private static MachineProfile nearestPreset(MachineProfile profile) {
        if (MachinePresets.contains(profile.name())) {
            return MachinePresets.byName(profile.name());
        }
        MachineProfile best = null;
        int fewest = Integer.MAX_VALUE;
        for (MachineProfile preset : MachinePresets.all()) {
            int differing = changes(preset, profile).size();
            if (differing < fewest) {
                best = preset;
                fewest = differing;
            }
        }
        return best;
    }

    private static int wholeNumber(MachineField field, String text) {
        return (Integer) field.valueIn(MachinePresets.all().getFirst().withField(field, text));
    }
}
