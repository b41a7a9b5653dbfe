package io.spinlab.reports.cli;

import picocli.CommandLine;
import picocli.CommandLine.Command;

import java.io.PrintWriter;

/**
 * The {@code spinlab} command: the front door to the primitives, the simulator and the reports.
 *
 * <p>Exit codes: 0 on success, 1 when a check fails (or a hunt finds a regression with
 * {@code --fail-on-regression}), 2 on bad usage.
 */
@Command(name = "spinlab", mixinStandardHelpOptions = true, version = "spinlab 0.1.0",
        description = "Spin-waiting and synchronization primitives on real and simulated CPUs.",
        subcommands = {MachinesCommand.class, RunCommand.class, TraceCommand.class, ReproduceCommand.class,
                WhatifCommand.class, HuntCommand.class, CalibrateCommand.class,
                BenchCommand.class, CommandLine.HelpCommand.class})
public final class SpinlabCommand implements Runnable {

    /** Exit code of a run whose check failed. */
    public static final int EXIT_CHECK_FAILED = 1;
    /** Exit code of bad usage. */
    public static final int EXIT_USAGE = 2;

    @CommandLine.Spec
    private CommandLine.Model.CommandSpec spec;

    private final boolean terminal;

    private SpinlabCommand(boolean terminal) {
        this.terminal = terminal;
    }

    /** Whether standard error is an interactive terminal (progress bars redraw in place). */
    boolean terminal() {
        return terminal;
    }

    @Override
    public void run() {
        spec.commandLine().usage(spec.commandLine().getOut());
    }

    /** A command line wired to the given streams, with spinlab's exit codes and error messages. */
    public static CommandLine commandLine(PrintWriter out, PrintWriter err) {
        return commandLine(out, err, false);
    }

    private static CommandLine commandLine(PrintWriter out, PrintWriter err, boolean terminal) {
        CommandLine commandLine = new CommandLine(new SpinlabCommand(terminal));
        commandLine.setOut(out);
        commandLine.setErr(err);
        commandLine.setExecutionExceptionHandler((e, cmd, parseResult) -> {
            if (e instanceof IllegalArgumentException) {
                cmd.getErr().println("spinlab: " + e.getMessage());
                return EXIT_USAGE;
            }
            throw e;
        });
        return commandLine;
    }

    public static void main(String[] args) {
        PrintWriter out = new PrintWriter(System.out, true);
        PrintWriter err = new PrintWriter(System.err, true);
        java.io.Console console = System.console();
        boolean terminal = console != null && console.isTerminal();
        System.exit(commandLine(out, err, terminal).execute(args));
    }
}
