package io.spinlab.reports.cli;

import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code --quiet}, and the progress display of the command it is mixed into. */
final class ProgressOptions {

    @Option(names = {"-q", "--quiet"}, description = "No progress on standard error.")
    boolean quiet;

    @Spec(Spec.Target.MIXEE)
    private CommandSpec mixee;

    /** Starts the progress display of {@code total} runs, or nothing with {@code --quiet}. */
    Progress start(String task, long total) {
        if (quiet) {
            return Progress.NONE;
        }
        boolean terminal = mixee.root().userObject() instanceof SpinlabCommand root && root.terminal();
        return Progress.start(mixee.commandLine().getErr(), terminal, task, total);
    }
}
