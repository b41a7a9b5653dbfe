package io.spinlab.sim.workload;

import io.spinlab.impl.platform.HardwarePlatform;
import io.spinlab.impl.spin.SpinContext;
import io.spinlab.model.machine.MachineProfile;
import io.spinlab.model.platform.Platform;
import io.spinlab.model.tuning.Tuning;
import io.spinlab.sim.engine.Faults;
import io.spinlab.sim.engine.Simulation;
import io.spinlab.sim.engine.SimulationResult;

import java.lang.invoke.MethodType;
import java.lang.reflect.Constructor;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * Runs a {@link Workload} on real hardware or in the simulator.
 *
 * <p>With the memory model on, a workload must run as a <em>guest</em>: its classes and the
 * primitives it builds come from the simulation's instrumenting class loader, not from the
 * application loader that defined the {@code Workload} instance a caller holds. So a workload
 * crosses that boundary as a recipe — its class and constructor arguments —
 * ({@link #simulate(Class, List, Tuning, Simulation.Builder)}): the runner loads the guest copy
 * of the class by name, constructs it there, builds the guest {@code SpinContext} on the
 * simulation's platform and runs it; only JDK and {@code io.spinlab.model} values (the
 * arguments, {@code Platform}, {@code Tuning}) cross, and the guest's result comes back by
 * reflection as a {@link WorkloadResult} of this side.
 */
public final class WorkloadRunner {
    /*
     * Implementation notes
     *
     * Why a recipe and not the instance: the instance's class is the application loader's
     * copy, whose methods would run uninstrumented and build uninstrumented primitives; the
     * guest copy is another class with the same name. Re-creating an object of one from an
     * object of the other would need serialization or field copying behind constructors;
     * constructing it afresh from its public constructor is explicit and keeps workloads
     * ordinary immutable classes.
     */

    private static final String SPIN_CONTEXT = "io.spinlab.impl.spin.SpinContext";

    private WorkloadRunner() {
    }

    /** Runs {@code workload} on {@link HardwarePlatform} with real threads and real time, on the calling thread. */
    public static WorkloadResult onHardware(Workload workload, Tuning tuning) throws InterruptedException {
        return onHardware(workload, tuning, HardwarePlatform.INSTANCE);
    }

    /**
     * Runs {@code workload} on {@link HardwarePlatform}, unmeasured, until {@code nanos} of real time have passed
     * (whole runs; none for 0), as JMH's warm-up iterations: the JIT compiles the workload's and the primitives'
     * code meanwhile, so that a run after it measures compiled code, as the simulator's virtual time assumes.
     * Returns the runs made.
     */
    public static int warmUpOnHardware(Workload workload, Tuning tuning, long nanos) throws InterruptedException {
        Objects.requireNonNull(workload, "workload");
        Objects.requireNonNull(tuning, "tuning");
        if (nanos < 0) {
            throw new IllegalArgumentException("nanos = " + nanos + " is negative");
        }
        int runs = 0;
        long start = System.nanoTime();
        while (System.nanoTime() - start < nanos) {
            onHardware(workload, tuning);
            runs++;
        }
        return runs;
    }

    /**
     * Runs {@code workload} on real threads through {@code platform}, a platform that hands its
     * calls to the hardware one (e.g. {@link ThreadTimes#platform()}).
     */
    public static WorkloadResult onHardware(Workload workload, Tuning tuning, Platform platform)
            throws InterruptedException {
        SpinContext context = SpinContext.of(platform, tuning);
        context.measurePauseAtStartUp();
        return workload.run(context);
    }

    /** Runs {@code workload} in a simulation of {@code machine} with {@code seed} and no faults. */
    public static SimulatedRun simulate(Workload workload, Tuning tuning, MachineProfile machine, long seed) {
        return simulate(workload, tuning, Simulation.builder(machine).seed(seed).faults(Faults.none()));
    }

    /**
     * Runs {@code workload} in a simulation configured by {@code simulation} (machine, seed,
     * faults, budgets, trace); the workload and tuning are added to its reproduction line. The
     * workload runs on a simulated thread named {@code main}.
     */
    public static SimulatedRun simulate(Workload workload, Tuning tuning, Simulation.Builder simulation) {
        Objects.requireNonNull(workload, "workload");
        Objects.requireNonNull(tuning, "tuning");
        if (simulation.memoryModelOn()) {
            throw new IllegalArgumentException("with the memory model on, pass the workload as a class and constructor "
                    + "arguments (simulate(" + workload.getClass().getSimpleName() + ".class, List.of(...), ...)): "
                    + "it must be built inside the instrumenting class loader");
        }
        Simulation sim = simulation.context("workload=" + workload.describe() + " tuning=" + tuning.describe())
                .initialize(workload.getClass())
                .build();
        SpinContext context = SpinContext.of(sim.platform(), tuning);
        WorkloadResult[] out = new WorkloadResult[1];
        sim.startThread("main", () -> {
            try {
                context.measurePauseAtStartUp();
                out[0] = workload.run(context);
            } catch (InterruptedException e) {
                throw new IllegalStateException("the workload was interrupted", e);
            }
        });
        SimulationResult result = sim.run();
        return new SimulatedRun(result.completed() ? Optional.ofNullable(out[0]) : Optional.empty(), result);
    }

    /**
     * Runs the workload {@code new type(arguments...)} in a simulation configured by
     * {@code simulation}. With the memory model off this is {@link #simulate(Workload, Tuning,
     * Simulation.Builder)} on a new instance; with it on, the instance is built from the guest
     * copy of {@code type} inside the simulation's instrumenting class loader (see the class
     * documentation). The arguments must be of JDK or {@code io.spinlab.model} types.
     *
     * @throws IllegalArgumentException if no public constructor of {@code type} takes {@code arguments}
     */
    public static SimulatedRun simulate(Class<? extends Workload> type, List<?> arguments, Tuning tuning,
            Simulation.Builder simulation) {
        Objects.requireNonNull(type, "type");
        Objects.requireNonNull(arguments, "arguments");
        Objects.requireNonNull(tuning, "tuning");
        if (!simulation.memoryModelOn()) {
            Workload workload = (Workload) construct(type, arguments);
            return simulate(workload, tuning, simulation);
        }
        Class<?> guestType = load(simulation.guestLoader(), type.getName());
        return simulateGuest(construct(guestType, arguments), type, tuning, simulation);
    }

    /**
     * Runs the registry workload {@code name} with {@code parameters} ({@code key=value,...}) in a
     * simulation configured by {@code simulation}: with the memory model on, the workload is built
     * by the guest copy of {@link Workloads} inside the instrumenting class loader, so parameter
     * types of the workload package (thread counts, windows) never cross the loader boundary.
     *
     * @throws IllegalArgumentException for an unknown workload or a bad parameter, saying what is valid
     */
    public static SimulatedRun simulate(String name, String parameters, Tuning tuning, Simulation.Builder simulation) {
        Workload check = Workloads.create(name, parameters);
        if (!simulation.memoryModelOn()) {
            return simulate(check, tuning, simulation);
        }
        ClassLoader guests = simulation.guestLoader();
        Class<?> registry = load(guests, Workloads.class.getName());
        Object workload = invoke(method(registry, "create", String.class, String.class), null, name, parameters);
        return simulateGuest(workload, check.getClass(), tuning, simulation);
    }

    private static SimulatedRun simulateGuest(Object workload, Class<?> hostType, Tuning tuning,
            Simulation.Builder simulation) {
        ClassLoader guests = simulation.guestLoader();
        Class<?> guestType = workload.getClass();
        String describe = (String) invoke(method(guestType, "describe"), workload);
        Simulation sim = simulation.context("workload=" + describe + " tuning=" + tuning.describe())
                .initialize(hostType)
                .build();
        Class<?> contextType = load(guests, SPIN_CONTEXT);
        Object context = invoke(method(contextType, "of", Platform.class, Tuning.class), null, sim.platform(), tuning);
        Method run = method(guestType, "run", contextType);
        Method startUp = method(contextType, "measurePauseAtStartUp");
        Object[] out = new Object[1];
        sim.startThread("main", () -> {
            invoke(startUp, context);
            out[0] = invoke(run, workload, context);
        });
        SimulationResult result = sim.run();
        Optional<WorkloadResult> workloadResult = result.completed() && out[0] != null
                ? Optional.of(fromGuest(out[0])) : Optional.empty();
        return new SimulatedRun(workloadResult, result);
    }

    private static Class<?> load(ClassLoader loader, String name) {
        try {
            return Class.forName(name, false, loader);
        } catch (ClassNotFoundException e) {
            throw new IllegalArgumentException("the guest class loader cannot load " + name, e);
        }
    }

    private static Object construct(Class<?> type, List<?> arguments) {
        for (Constructor<?> constructor : type.getConstructors()) {
            Class<?>[] parameters = constructor.getParameterTypes();
            if (parameters.length == arguments.size() && accepts(parameters, arguments)) {
                try {
                    return constructor.newInstance(arguments.toArray());
                } catch (InvocationTargetException e) {
                    throw rethrow(e.getCause());
                } catch (ReflectiveOperationException e) {
                    throw new IllegalArgumentException("cannot construct " + type.getName(), e);
                }
            }
        }
        throw new IllegalArgumentException("no public constructor of " + type.getName() + " takes " + arguments);
    }

    private static boolean accepts(Class<?>[] parameters, List<?> arguments) {
        for (int i = 0; i < parameters.length; i++) {
            Object argument = arguments.get(i);
            Class<?> parameter = parameters[i].isPrimitive()
                    ? MethodType.methodType(parameters[i]).wrap().returnType() : parameters[i];
            if (argument == null ? parameters[i].isPrimitive() : !parameter.isInstance(argument)) {
                return false;
            }
        }
        return true;
    }

    private static Method method(Class<?> type, String name, Class<?>... parameters) {
        try {
            return type.getMethod(name, parameters);
        } catch (NoSuchMethodException e) {
            throw new IllegalArgumentException(type.getName() + " has no public method " + name, e);
        }
    }

    private static Object invoke(Method method, Object target, Object... arguments) {
        try {
            return method.invoke(target, arguments);
        } catch (InvocationTargetException e) {
            Throwable cause = e.getCause();
            if (cause instanceof InterruptedException) {
                throw new IllegalStateException("the workload was interrupted", cause);
            }
            throw rethrow(cause);
        } catch (IllegalAccessException e) {
            throw new IllegalStateException("cannot call " + method, e);
        }
    }

    private static RuntimeException rethrow(Throwable t) {
        if (t instanceof RuntimeException r) {
            throw r;
        }
        if (t instanceof Error e) {
            throw e;
        }
        throw new IllegalStateException(t);
    }

    /** The guest's WorkloadResult (a record of the guest loader) as one of this side, metrics included. */
    private static WorkloadResult fromGuest(Object guest) {
        Class<?> type = guest.getClass();
        Map<?, ?> metrics = (Map<?, ?>) invoke(method(type, "metrics"), guest);
        Map<String, Double> copy = new LinkedHashMap<>();
        metrics.forEach((k, v) -> copy.put((String) k, (Double) v));
        return new WorkloadResult((String) invoke(method(type, "workload"), guest),
                (String) invoke(method(type, "parameters"), guest), (String) invoke(method(type, "platform"), guest),
                (long) invoke(method(type, "operations"), guest), (long) invoke(method(type, "elapsedNanos"), guest),
                copy);
    }
}
