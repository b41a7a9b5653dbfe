package io.spinlab.junit;

import io.spinlab.sim.trace.TraceRecorder;
import org.junit.jupiter.api.extension.ExtensionContext;

import java.io.IOException;
import java.io.OutputStream;
import java.lang.reflect.Method;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;

/** What a simulated test leaves behind: the failure report and trace file, and the no-contention notice. */
final class Reports {

    static final String NO_CONTENTION = "no contention: no thread spun, yielded, parked or waited for a processor, "
            + "and no access waited for a cache line; the test may not test what it meant to";

    private Reports() {
    }

    /** The failure to throw for {@code failure} in the invocation of {@code sim}: the original with the report. */
    static SimulationFailure failure(String invocation, Method method, Sim sim, Throwable failure) {
        String test = method.getDeclaringClass().getSimpleName() + "." + method.getName();
        return failure(test, invocation, sim, failure);
    }

    /** As above for a test named {@code test} (e.g. {@code LockTest.exclusive}) and one invocation of it. */
    static SimulationFailure failure(String test, String invocation, Sim sim, Throwable failure) {
        String name = test + " [" + invocation + "]";
        Path trace = sim.hasRun() ? writeTrace(test, invocation, sim) : null;
        String report = FailureReport.render(name, sim, trace);
        // A thread's failure (the cause of Sim.run's SimulationFailure) is what the test author wrote; say it first.
        String message = failure instanceof SimulationFailure && failure.getCause() != null
                ? String.valueOf(failure.getCause()) : String.valueOf(failure);
        return new SimulationFailure(message + "\n\n" + report, failure);
    }

    /** Publishes (and prints) the notice when the run saw no contention. */
    static void noticeIfUncontended(ExtensionContext context, Sim sim) {
        if (sim.hasRun() && !sim.sawContention()) {
            context.publishReportEntry("spinlab", NO_CONTENTION);
            System.out.println("spinlab: " + context.getDisplayName() + ": " + NO_CONTENTION);
        }
    }

    /** Writes the run's Chrome trace under the reports directory; null (and a note on stderr) if it cannot. */
    static Path writeTrace(String test, String invocation, Sim sim) {
        Optional<TraceRecorder> trace = sim.result().trace();
        if (trace.isEmpty()) {
            return null;
        }
        Path dir = Path.of(System.getProperty(SimulationExtension.REPORTS_PROPERTY, "target/spinlab"));
        String file = (test + "-" + invocation)
                .replaceAll("[^A-Za-z0-9._=-]+", "_") + ".trace.json";
        Path path = dir.resolve(file);
        try {
            Files.createDirectories(dir);
            try (OutputStream out = Files.newOutputStream(path)) {
                trace.get().writeChromeJson(out);
            }
            return path;
        } catch (IOException e) {
            System.err.println("spinlab: could not write the trace " + path + ": " + e.getMessage());
            return null;
        }
    }
}
