package io.spinlab.reports.cli;

import io.spinlab.model.tuning.Tuning;
import io.spinlab.sim.engine.Simulation;
import io.spinlab.sim.workload.SimulatedRun;
import io.spinlab.sim.workload.Workload;
import io.spinlab.sim.workload.WorkloadRunner;

import java.io.File;
import java.lang.reflect.Constructor;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Modifier;
import java.net.MalformedURLException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * A user's workload named on the command line ({@code --workload-class com.example.MyWorkload
 * --classpath target/classes}): a class implementing {@link Workload} with a public constructor
 * taking no argument or one {@code String} (the {@code key=value,...} parameters), loaded from the
 * class path and run as guest code, instrumented like spinlab's own workloads.
 */
final class UserWorkload {

    private final Class<? extends Workload> type;
    private final ClassLoader loader;
    private final List<Object> arguments;

    private UserWorkload(Class<? extends Workload> type, ClassLoader loader, List<Object> arguments) {
        this.type = type;
        this.loader = loader;
        this.arguments = arguments;
    }

    /**
     * Loads {@code className} from {@code classpath} (entries separated by the platform's path
     * separator; may be null), with {@code parameters} ({@code key=value,...}, may be empty).
     *
     * @throws IllegalArgumentException one line saying what is wrong and what is expected
     */
    static UserWorkload load(String className, String classpath, String parameters) {
        ClassLoader loader = loaderOf(classpath);
        Class<?> loaded;
        try {
            loaded = Class.forName(className, false, loader);
        } catch (ClassNotFoundException | LinkageError e) {
            throw new IllegalArgumentException("--workload-class " + className + ": no such class on "
                    + (classpath == null ? "the class path" : "--classpath " + classpath) + " (" + e + ")");
        }
        if (!Workload.class.isAssignableFrom(loaded)) {
            throw new IllegalArgumentException("--workload-class " + className + " does not implement "
                    + Workload.class.getName() + "; a workload implements it and has a public constructor taking "
                    + "no argument or one String (the key=value,... parameters)");
        }
        if (loaded.getPackageName().isEmpty() || Modifier.isAbstract(loaded.getModifiers())) {
            throw new IllegalArgumentException("--workload-class " + className + " must be a concrete class in a "
                    + "package (its package is loaded instrumented)");
        }
        @SuppressWarnings("unchecked")
        Class<? extends Workload> type = (Class<? extends Workload>) loaded;
        boolean takesString = hasPublicConstructor(type, String.class);
        boolean takesNothing = hasPublicConstructor(type);
        List<Object> arguments;
        if (takesString) {
            arguments = List.of(parameters);
        } else if (takesNothing) {
            if (!parameters.isEmpty()) {
                throw new IllegalArgumentException("--workload-class " + className + " takes no parameters (it has no "
                        + "public constructor taking a String), but got: " + parameters);
            }
            arguments = List.of();
        } else {
            throw new IllegalArgumentException("--workload-class " + className + " has no public constructor taking "
                    + "no argument or one String (the key=value,... parameters)");
        }
        return new UserWorkload(type, loader, arguments);
    }

    private static boolean hasPublicConstructor(Class<?> type, Class<?>... parameters) {
        try {
            return Modifier.isPublic(type.getConstructor(parameters).getModifiers());
        } catch (NoSuchMethodException e) {
            return false;
        }
    }

    private static ClassLoader loaderOf(String classpath) {
        ClassLoader parent = UserWorkload.class.getClassLoader();
        if (classpath == null || classpath.isBlank()) {
            return parent;
        }
        List<URL> urls = new ArrayList<>();
        for (String entry : classpath.split(File.pathSeparator)) {
            if (entry.isBlank()) {
                continue;
            }
            Path path = Path.of(entry.strip());
            if (!Files.exists(path)) {
                throw new IllegalArgumentException("--classpath entry '" + entry + "' does not exist");
            }
            try {
                urls.add(path.toUri().toURL());
            } catch (MalformedURLException e) {
                throw new IllegalArgumentException("--classpath entry '" + entry + "' is not a path: " + e.getMessage());
            }
        }
        return new URLClassLoader("spinlab-user", urls.toArray(URL[]::new), parent);
    }

    /** A host-side instance, for its name and parameters and for a run on real threads. */
    Workload instance() {
        try {
            Constructor<? extends Workload> constructor = arguments.isEmpty() ? type.getConstructor()
                    : type.getConstructor(String.class);
            return constructor.newInstance(arguments.toArray());
        } catch (InvocationTargetException e) {
            Throwable cause = e.getCause();
            if (cause instanceof IllegalArgumentException bad) {
                throw new IllegalArgumentException("--workload-class " + type.getName() + ": " + bad.getMessage(), bad);
            }
            throw new IllegalStateException("the constructor of " + type.getName() + " threw " + cause, cause);
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException("cannot construct " + type.getName() + ": " + e, e);
        }
    }

    /** Runs it in the simulation {@code builder} describes, as guest code of its own package. */
    SimulatedRun simulate(Tuning tuning, Simulation.Builder builder) {
        Simulation.Builder guest = builder.guestParent(loader).guestPackages(type.getPackageName() + ".");
        return WorkloadRunner.simulate(type, arguments, tuning, guest);
    }
}
