package io.spinlab.junit;

import io.spinlab.model.machine.MachineProfile;
import io.spinlab.model.machine.MachineSpec;
import io.spinlab.sim.machine.MachineProfileFiles;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** The machines a test names: a preset with optional field settings, or a profile file. */
final class Machines {

    private Machines() {
    }

    /**
     * The machine {@code text} names: {@code skylake-i7-6700}, {@code skylake-i7-6700 pauseCycles=300
     * logicalProcessors=64}, or the path of a profile file ({@code .json}, {@code .yaml}, {@code .yml},
     * relative to the working directory).
     *
     * @throws IllegalArgumentException naming what is wrong and what is allowed
     */
    static MachineProfile parse(String text) {
        String spec = text.strip();
        if (isFileName(spec)) {
            Path file = Path.of(spec);
            if (!Files.isRegularFile(file)) {
                throw new IllegalArgumentException("machine profile file '" + spec + "' not found (relative to "
                        + Path.of("").toAbsolutePath() + ")");
            }
            try {
                return MachineProfileFiles.load(file);
            } catch (IOException e) {
                throw new IllegalArgumentException("cannot read machine profile file '" + spec + "': " + e.getMessage(),
                        e);
            }
        }
        return MachineSpec.parse(spec);
    }

    private static boolean isFileName(String spec) {
        return !spec.contains(" ") && (spec.endsWith(".json") || spec.endsWith(".yaml") || spec.endsWith(".yml"));
    }

    /** {@code --machine skylake-i7-6700 --set pauseCycles=300}: the machine as spinlab command-line options. */
    static String commandLine(MachineProfile machine) {
        String[] words = MachineSpec.describe(machine).split(" ");
        StringBuilder out = new StringBuilder("--machine ").append(words[0]);
        for (int i = 1; i < words.length; i++) {
            out.append(" --set ").append(words[i]);
        }
        return out.toString();
    }
}
