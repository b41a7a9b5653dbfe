package io.spinlab.reports.cli;

import io.spinlab.model.machine.MachineField;
import io.spinlab.model.machine.MachineProfile;
import io.spinlab.model.machine.MachineSpec;
import io.spinlab.model.tuning.Tuning;
import io.spinlab.sim.engine.Faults;
import io.spinlab.sim.engine.Simulation;
import io.spinlab.sim.machine.MachineProfileFiles;
import io.spinlab.sim.tuning.TuningFiles;
import io.spinlab.sim.workload.SimulatedRun;
import io.spinlab.sim.workload.Workload;
import io.spinlab.sim.workload.WorkloadSource;
import io.spinlab.sim.workload.Workloads;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** The options that say what one simulated run is: workload, machine, tuning, threads, seed, window. */
final class RunSpec {

    @Option(names = "--workload", paramLabel = "NAME",
            description = "A workload by name (see the list with --help): ${COMPLETION-CANDIDATES}.",
            completionCandidates = WorkloadNames.class)
    String workload;

    @Mixin
    UserWorkload userWorkload = new UserWorkload();

    /** The machine when neither --machine nor --machine-file is given. */
    static final String DEFAULT_MACHINE = "skylake-i7-6700";

    @Option(names = "--machine", paramLabel = "PRESET|FILE",
            description = "A machine preset (spinlab machines), optionally with changed fields "
                    + "('skylake-i7-6700 pauseCycles=300'), or a profile file (.json, .yaml); default "
                    + DEFAULT_MACHINE + ".")
    String machine;

    @Option(names = "--set", paramLabel = "FIELD=VALUE", description = "Change one field of the machine, e.g. "
            + "pauseCycles=300 (repeatable; fields: spinlab machines --json).")
    List<String> sets = new ArrayList<>();

    @Option(names = "--machine-file", paramLabel = "FILE",
            description = "A machine profile file (.json, .yaml): a preset with \"base\" and changed fields, or every "
                    + "field.")
    Path machineFile;

    @Option(names = "--tuning", paramLabel = "TUNING|FILE",
            description = "A preset and knob settings, e.g. legacy or current,spin=proc-scaled, or a tuning file "
                    + "(.json, .yaml); default current.")
    String tuning;

    @Option(names = "--tuning-file", paramLabel = "FILE",
            description = "A tuning file (.json, .yaml): an optional \"base\" preset and knob: value settings.")
    Path tuningFile;

    @Option(names = "--threads", paramLabel = "N|Mpc", description = "Threads: absolute, or a multiple of the "
            + "processor count like 1pc, 0.5pc, 64pc (default: the workload's).")
    String threads;

    @Option(names = "--seed", defaultValue = "1", description = "The simulation's seed (default ${DEFAULT-VALUE}).")
    long seed;

    @Option(names = "--duration", paramLabel = "D", description = "The measured window, e.g. 2ms or 500us "
            + "(default: the workload's).")
    String duration;

    @Option(names = "--param", paramLabel = "KEY=VALUE", description = "Any other workload parameter (repeatable).")
    List<String> params = new ArrayList<>();

    @Option(names = "--fast", description = "Fast mode, for quick sweeps only: only Platform calls cost time; "
            + "shared-memory accesses and the code between calls are free and atomic (a CAS never fails). "
            + "Every output made with it says so first.")
    boolean fast;

    @Option(names = "--no-noise", description = "Run without the machine's run-to-run noise (wake latency, PAUSE and "
            + "clock-read costs, timer phase, where in its transfer a contended cache line changes hands); with it, the seed draws the noise too.")
    boolean noNoise;

    @Option(names = "--faults", paramLabel = "FAULTS", defaultValue = "none", description = "Faults to inject, "
            + "drawn from the seed: " + Faults.SYNTAX + "; default ${DEFAULT-VALUE}.")
    String faults;

    Tuning tuning() {
        if (tuning != null && tuningFile != null) {
            throw new IllegalArgumentException("give --tuning or --tuning-file, not both");
        }
        if (tuningFile != null) {
            return loadTuningFile(tuningFile);
        }
        return loadTuning(tuning == null ? "current" : tuning);
    }

    MachineProfile machine() {
        if (machine != null && machineFile != null) {
            throw new IllegalArgumentException("give --machine or --machine-file, not both");
        }
        MachineProfile base = machineFile != null ? loadMachineFile(machineFile)
                : loadMachine(machine == null ? DEFAULT_MACHINE : machine);
        return withSettings(base, sets, "--set");
    }

    /** The faults of {@code --faults}. */
    Faults faults() {
        return Faults.parse(faults);
    }

    /** {@code base} with each {@code FIELD=VALUE} of {@code settings} applied; {@code option} names them in errors. */
    static MachineProfile withSettings(MachineProfile base, List<String> settings, String option) {
        Map<MachineField, String> fields = new LinkedHashMap<>();
        for (String setting : settings) {
            int eq = setting.indexOf('=');
            if (eq <= 0) {
                throw new IllegalArgumentException(option + " " + setting + " must be FIELD=VALUE; fields: "
                        + String.join(", ", MachineField.names()));
            }
            MachineField field = MachineField.byName(setting.substring(0, eq).strip());
            if (fields.put(field, setting.substring(eq + 1).strip()) != null) {
                throw new IllegalArgumentException(option + " sets " + field.fieldName() + " twice");
            }
        }
        return MachineSpec.apply(base, fields);
    }

    Workload workload() {
        return source().create(parameterText());
    }

    /** The workload named: --workload or --workload-class; checks that exactly one of them was given. */
    WorkloadSource source() {
        if ((workload == null) == (userWorkload.className == null)) {
            throw new IllegalArgumentException("give --workload NAME or --workload-class CLASS (exactly one); "
                    + "workloads: " + String.join(", ", Workloads.names()));
        }
        if (workload != null && userWorkload.classpath != null) {
            throw new IllegalArgumentException("--classpath is for --workload-class; --workload " + workload
                    + " is built in");
        }
        return userWorkload.source().orElseGet(() -> WorkloadSource.named(workload));
    }

    /** Runs the chosen workload in the simulation {@code builder} describes. */
    SimulatedRun simulate(Tuning chosenTuning, Simulation.Builder builder) {
        return source().simulate(parameterText(), chosenTuning, builder);
    }

    /** The workload parameters the options give, as {@code key=value,...}. */
    String parameterText() {
        List<String> all = new ArrayList<>();
        if (threads != null) {
            all.add("threads=" + threads);
        }
        if (duration != null) {
            all.add("window=" + duration);
        }
        all.addAll(params);
        return String.join(",", all);
    }

    /**
     * A simulation of the chosen machine with the chosen seed: the full cost model unless
     * {@code --fast}, the machine's noise unless {@code --no-noise}.
     */
    Simulation.Builder simulation() {
        return Simulation.builder(machine()).seed(seed).memoryModel(!fast).faults(faults()).noise(!noNoise);
    }

    /** A preset by name, or a profile file when the text names one. */
    static MachineProfile loadMachine(String text) {
        String lower = text.toLowerCase(java.util.Locale.ROOT);
        boolean looksLikeFile = lower.endsWith(".json") || lower.endsWith(".yaml") || lower.endsWith(".yml");
        if (!looksLikeFile) {
            return MachineSpec.parse(text);
        }
        return loadMachineFile(Path.of(text));
    }

    /** The profile in {@code path}, with a clear message when it is missing, unreadable or invalid. */
    static MachineProfile loadMachineFile(Path path) {
        CliFiles.checkInputFile("machine file", path);
        try {
            return MachineProfileFiles.load(path);
        } catch (IOException e) {
            throw new IllegalArgumentException("cannot read machine file '" + path + "': " + CliFiles.reason(e), e);
        }
    }

    /** A tuning as {@link Tuning#parse} reads it, or a tuning file when the text names one. */
    static Tuning loadTuning(String text) {
        if (!TuningFiles.isFileName(text)) {
            return Tuning.parse(text);
        }
        return loadTuningFile(Path.of(text.strip()));
    }

    /** The tuning file {@code path}, whatever its name: a wrong extension is named as such. */
    static Tuning loadTuningFile(Path path) {
        if (!TuningFiles.isFileName(String.valueOf(path.getFileName()))) {
            throw new IllegalArgumentException("tuning file '" + path + "' must end with .json, .yaml or .yml");
        }
        CliFiles.checkInputFile("tuning file", path);
        try {
            return TuningFiles.load(path);
        } catch (IOException e) {
            throw new IllegalArgumentException("cannot read tuning file '" + path + "': " + CliFiles.reason(e), e);
        }
    }

    /** The registry's workload names, for help and completion. */
    static final class WorkloadNames implements Iterable<String> {
        @Override
        public java.util.Iterator<String> iterator() {
            return Workloads.names().iterator();
        }
    }
}
