package io.spinlab.sim.engine;

import java.lang.reflect.Constructor;
import java.lang.reflect.InaccessibleObjectException;
import java.lang.reflect.InvocationTargetException;
import java.util.concurrent.Executor;

/**
 * Creates virtual threads that run on a scheduler of our choosing: the JDK's package-private
 * {@code java.lang.ThreadBuilders$VirtualThreadBuilder(Executor)}. The JVM must be started with
 * {@code --add-opens java.base/java.lang=ALL-UNNAMED} (Surefire's argLine and the launcher
 * pass it).
 */
final class VirtualThreads {
    /*
     * Implementation notes
     *
     * Why virtual threads with a custom scheduler: each simulated thread runs real, unmodified
     * Java code with its own stack and its own Thread identity (Thread.currentThread() is what
     * the primitives record as owner). When the engine unparks one, the JDK hands its
     * continuation to our executor, and the engine runs it on its own thread until the next
     * Platform call parks it again: a hand-off costs ~150-300 ns, 60-100x less than batons
     * between platform threads. Raw jdk.internal.vm.Continuation is cheaper still but has no
     * thread identity. See reference/toolchain.md, "Deterministic scheduling on JDK 25".
     */

    private static final String BUILDER = "java.lang.ThreadBuilders$VirtualThreadBuilder";
    private static final Constructor<?> CONSTRUCTOR;
    private static final IllegalStateException PROBLEM;

    static {
        Constructor<?> constructor = null;
        IllegalStateException problem = null;
        try {
            constructor = findConstructor();
        } catch (IllegalStateException e) {
            problem = e;
        }
        CONSTRUCTOR = constructor;
        PROBLEM = problem;
    }

    private VirtualThreads() {
    }

    /** An unstarted virtual thread named {@code name} whose continuation is submitted to {@code scheduler}. */
    static Thread unstarted(Executor scheduler, String name, Runnable task) {
        if (PROBLEM != null) {
            throw new IllegalStateException(PROBLEM.getMessage(), PROBLEM);
        }
        Thread.Builder.OfVirtual builder;
        try {
            builder = (Thread.Builder.OfVirtual) CONSTRUCTOR.newInstance(scheduler);
        } catch (InstantiationException | IllegalAccessException e) {
            throw new IllegalStateException("cannot create a virtual-thread builder with a custom scheduler", e);
        } catch (InvocationTargetException e) {
            throw new IllegalStateException("cannot create a virtual-thread builder with a custom scheduler",
                    e.getCause());
        }
        return builder.name(name).unstarted(task);
    }

    /** Fails with the reason if this JVM cannot give virtual threads a custom scheduler. */
    static void checkAvailable() {
        if (PROBLEM != null) {
            throw new IllegalStateException(PROBLEM.getMessage(), PROBLEM);
        }
    }

    private static Constructor<?> findConstructor() {
        try {
            Constructor<?> constructor = Class.forName(BUILDER).getDeclaredConstructor(Executor.class);
            constructor.setAccessible(true);
            return constructor;
        } catch (InaccessibleObjectException e) {
            throw new IllegalStateException("the simulator needs --add-opens java.base/java.lang=ALL-UNNAMED on the "
                    + "java command line (it schedules virtual threads with its own executor)", e);
        } catch (ClassNotFoundException | NoSuchMethodException e) {
            throw new IllegalStateException("this JDK (" + Runtime.version() + ") has no " + BUILDER
                    + "(Executor); the simulator needs JDK 25", e);
        }
    }
}
