package io.spinlab.properties.engine;

import java.util.List;
import java.util.Objects;
import java.util.function.Supplier;

/**
 * Stateful properties: sequences of generated commands run against a fresh system and its
 * sequential model. Commands are drawn as a list, so a failure shrinks to the shortest failing
 * sequence of the simplest commands.
 */
public final class Stateful {

    private Stateful() {
    }

    /**
     * A property over command sequences of at most {@code maxCommands}; run it with
     * {@link Property#run} passing {@link #runner(Supplier, Supplier)}, or use {@link #check}.
     */
    public static <S, M> Property<List<Command<S, M>>> sequences(Gen<? extends Command<S, M>> commands,
                                                                 int maxCommands) {
        return Property.forAll(Gens.<Command<S, M>>lists(commands, 1, maxCommands));
    }

    /** Runs a command sequence on a fresh system and model, skipping commands whose precondition fails. */
    public static <S, M> Property.Body<List<Command<S, M>>> runner(Supplier<? extends S> system,
                                                                  Supplier<? extends M> model) {
        Objects.requireNonNull(system, "system");
        Objects.requireNonNull(model, "model");
        return commands -> {
            S s = system.get();
            M m = model.get();
            for (Command<S, M> command : commands) {
                if (command.precondition(m)) {
                    command.run(s, m);
                }
            }
        };
    }

    /** Generates, runs and (on failure) shrinks command sequences; see {@link Property}. */
    public static <S, M> Property.Result check(String name, Supplier<? extends S> system, Supplier<? extends M> model,
                                               Gen<? extends Command<S, M>> commands, int maxCommands) {
        return sequences(commands, maxCommands).named(name).run(runner(system, model));
    }
}
