package io.spinlab.reports.cli;

import io.spinlab.sim.workload.WorkloadSource;
import picocli.CommandLine.Option;

import java.io.File;
import java.net.MalformedURLException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * A user's workload named on the command line ({@code --workload-class com.example.MyWorkload
 * --classpath target/classes}), the options shared by {@code run}, {@code trace}, {@code whatif}
 * and {@code hunt}: the class loaded from the class path and checked as a
 * {@link WorkloadSource#ofClass workload class}, every error one line naming the option.
 */
final class UserWorkload {

    @Option(names = "--workload-class", paramLabel = "CLASS", description = "Your own workload: a class "
            + "implementing io.spinlab.sim.workload.Workload with a public constructor taking one String (the "
            + "key=value,... parameters: --param on run and trace; threads, warmup and window set by whatif and "
            + "hunt) or, for run and trace, none; run instrumented like the built-in ones.")
    String className;

    @Option(names = "--classpath", paramLabel = "PATH", description = "Where --workload-class and the code it uses "
            + "are: directories and jars separated by the path separator (':' on Linux and macOS), e.g. target/classes.")
    String classpath;

    /**
     * The workload the options name, if {@code --workload-class} was given.
     *
     * @throws IllegalArgumentException for {@code --classpath} without {@code --workload-class}, or a class
     *                                  that cannot be loaded or is no workload
     */
    Optional<WorkloadSource> source() {
        if (className == null) {
            if (classpath != null) {
                throw new IllegalArgumentException("--classpath is for --workload-class");
            }
            return Optional.empty();
        }
        return Optional.of(load(className.strip(), classpath));
    }

    /**
     * Loads {@code className} from {@code classpath} (entries separated by the platform's path
     * separator; may be null for spinlab's own class path).
     *
     * @throws IllegalArgumentException one line saying what is wrong and what is expected
     */
    static WorkloadSource load(String className, String classpath) {
        ClassLoader loader = loaderOf(classpath);
        Class<?> loaded;
        try {
            loaded = Class.forName(className, false, loader);
        } catch (ClassNotFoundException | LinkageError e) {
            throw new IllegalArgumentException("--workload-class " + className + ": no such class on "
                    + (classpath == null ? "the class path" : "--classpath " + classpath) + " (" + e + ")");
        }
        String options = "--workload-class " + className + (classpath == null ? "" : " --classpath " + classpath);
        try {
            return WorkloadSource.ofClass(loaded, options);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("--workload-class " + e.getMessage(), e);
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
}
