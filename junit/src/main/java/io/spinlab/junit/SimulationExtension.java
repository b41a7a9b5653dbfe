package io.spinlab.junit;

import io.spinlab.model.machine.MachineProfile;
import io.spinlab.model.tuning.Tuning;
import io.spinlab.sim.memory.GuestClassLoader;
import org.junit.jupiter.api.extension.Extension;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.InvocationInterceptor;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolver;
import org.junit.jupiter.api.extension.ReflectiveInvocationContext;
import org.junit.jupiter.api.extension.TestTemplateInvocationContext;
import org.junit.jupiter.api.extension.TestTemplateInvocationContextProvider;

import java.lang.reflect.Constructor;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Stream;

/**
 * Runs {@link SimulationTest} methods: one invocation per machine, tuning and seed, each on a
 * fresh instance of the instrumented copy of the test class with its own {@link Sim}; a failure
 * gets the {@linkplain FailureReport report} and the run's trace file.
 */
public final class SimulationExtension implements TestTemplateInvocationContextProvider, InvocationInterceptor {
    /*
     * Implementation notes
     *
     * The invocation JUnit would make (on its own instance, loaded by the application class
     * loader, so uninstrumented) is skipped; the same method of the guest copy of the class is
     * called instead, with the arguments JUnit resolved. The Sim parameter is resolved by each
     * invocation context's own resolver, which knows that invocation's machine, tuning and seed;
     * Sim is not a guest class, so the same object is valid on both sides of the loader.
     */

    /** {@code -Dspinlab.sim.machine=...}: run only this machine (a preset line or a profile file). */
    public static final String MACHINE_PROPERTY = "spinlab.sim.machine";
    /** {@code -Dspinlab.sim.seed=...}: run only this seed. */
    public static final String SEED_PROPERTY = "spinlab.sim.seed";
    /** {@code -Dspinlab.sim.reports=...}: where trace files go; {@code target/spinlab} by default. */
    public static final String REPORTS_PROPERTY = "spinlab.sim.reports";

    @Override
    public boolean supportsTestTemplate(ExtensionContext context) {
        return context.getTestMethod().map(m -> m.isAnnotationPresent(SimulationTest.class)).orElse(false);
    }

    @Override
    public Stream<TestTemplateInvocationContext> provideTestTemplateInvocationContexts(ExtensionContext context) {
        TestJvm.requireSimulator();
        Method method = context.getRequiredTestMethod();
        SimulationTest config = method.getAnnotation(SimulationTest.class);
        Class<?> testClass = context.getRequiredTestClass();
        if (testClass.getEnclosingClass() != null && !Modifier.isStatic(testClass.getModifiers())) {
            throw new IllegalArgumentException("@SimulationTest in the inner class " + testClass.getName()
                    + " is not supported; use a top-level or static nested test class");
        }
        List<String> prefixes = SimCase.guestPrefixes(testClass, config.guestPackages());
        List<SimCase> cases = cases(config, prefixes);
        boolean withTuning = tunings(config).size() > 1;
        return cases.stream().map(c -> new Case(c, c.displayName(withTuning)));
    }

    private static List<SimCase> cases(SimulationTest config, List<String> prefixes) {
        List<MachineProfile> machines = new ArrayList<>();
        String machineOverride = System.getProperty(MACHINE_PROPERTY, "").strip();
        for (String text : machineOverride.isEmpty() ? Arrays.asList(config.machines()) : List.of(machineOverride)) {
            try {
                machines.add(Machines.parse(text));
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException("@SimulationTest machine '" + text + "': " + e.getMessage(), e);
            }
        }
        if (machines.isEmpty()) {
            throw new IllegalArgumentException("@SimulationTest machines is empty; name at least one, e.g. "
                    + "\"skylake-i7-6700\"");
        }
        List<Long> seeds = seeds(config);
        List<SimCase> cases = new ArrayList<>();
        for (MachineProfile machine : machines) {
            for (Tuning tuning : tunings(config)) {
                for (long seed : seeds) {
                    cases.add(new SimCase(machine, tuning, seed, prefixes, config.schedulingPoints(),
                            config.maxVirtualMillis()));
                }
            }
        }
        return cases;
    }

    private static List<Long> seeds(SimulationTest config) {
        String override = System.getProperty(SEED_PROPERTY, "").strip();
        if (!override.isEmpty()) {
            try {
                return List.of(Long.parseLong(override));
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("-D" + SEED_PROPERTY + "=" + override + " is not a whole number", e);
            }
        }
        if (config.seed().length > 0) {
            return Arrays.stream(config.seed()).boxed().toList();
        }
        if (config.seeds() < 1 || config.seeds() > 10_000) {
            throw new IllegalArgumentException("@SimulationTest seeds = " + config.seeds() + "; allowed 1 to 10000");
        }
        List<Long> seeds = new ArrayList<>();
        for (long s = 1; s <= config.seeds(); s++) {
            seeds.add(s);
        }
        return seeds;
    }

    private static List<Tuning> tunings(SimulationTest config) {
        if (config.tunings().length == 0) {
            throw new IllegalArgumentException("@SimulationTest tunings is empty; name at least one, e.g. \"current\"");
        }
        List<Tuning> tunings = new ArrayList<>();
        for (String name : config.tunings()) {
            try {
                tunings.add(Tuning.parse(name));
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException("@SimulationTest tuning '" + name + "': " + e.getMessage(), e);
            }
        }
        return tunings;
    }

    @Override
    public void interceptTestTemplateMethod(Invocation<Void> invocation,
            ReflectiveInvocationContext<Method> invocationContext, ExtensionContext extensionContext)
            throws Throwable {
        invocation.skip();
        Method method = invocationContext.getExecutable();
        Object[] arguments = invocationContext.getArguments().toArray();
        Sim sim = null;
        for (Object argument : arguments) {
            if (argument instanceof Sim s) {
                sim = s;
            }
        }
        GuestClassLoader loader = guestLoaderOf(method, sim);
        try {
            invokeOnGuest(loader, method, arguments);
        } catch (Throwable failure) {
            if (sim == null) {
                throw failure;
            }
            throw Reports.failure(extensionContext.getDisplayName(), method, sim, failure);
        }
        if (sim != null) {
            Reports.noticeIfUncontended(extensionContext, sim);
        }
    }

    private static GuestClassLoader guestLoaderOf(Method method, Sim sim) {
        if (sim != null) {
            return sim.guestLoader();
        }
        SimulationTest config = method.getAnnotation(SimulationTest.class);
        return new SimCase(io.spinlab.model.machine.MachinePresets.byName("skylake-i7-6700"), Tuning.current(), 1,
                SimCase.guestPrefixes(method.getDeclaringClass(), config.guestPackages()), 0, 1).loader();
    }

    private static void invokeOnGuest(GuestClassLoader loader, Method method, Object[] arguments) throws Throwable {
        Class<?> guestClass = Class.forName(method.getDeclaringClass().getName(), true, loader);
        Constructor<?> constructor;
        try {
            constructor = guestClass.getDeclaredConstructor();
        } catch (NoSuchMethodException e) {
            throw new IllegalArgumentException("@SimulationTest class " + guestClass.getName()
                    + " needs a no-argument constructor", e);
        }
        constructor.setAccessible(true);
        Object instance;
        try {
            instance = constructor.newInstance();
        } catch (InvocationTargetException e) {
            throw e.getCause();
        }
        Method guestMethod = guestClass.getDeclaredMethod(method.getName(), method.getParameterTypes());
        guestMethod.setAccessible(true);
        try {
            guestMethod.invoke(Modifier.isStatic(guestMethod.getModifiers()) ? null : instance, arguments);
        } catch (InvocationTargetException e) {
            throw e.getCause();
        }
    }

    /** One invocation: its name and the resolver of its Sim. */
    private record Case(SimCase simCase, String name) implements TestTemplateInvocationContext {

        @Override
        public String getDisplayName(int invocationIndex) {
            return name;
        }

        @Override
        public List<Extension> getAdditionalExtensions() {
            return List.of(new SimResolver(simCase));
        }
    }

    /** Resolves the {@link Sim} parameter of one invocation. */
    private record SimResolver(SimCase simCase) implements ParameterResolver {

        @Override
        public boolean supportsParameter(ParameterContext parameter, ExtensionContext extension) {
            return parameter.getParameter().getType() == Sim.class;
        }

        @Override
        public Object resolveParameter(ParameterContext parameter, ExtensionContext extension) {
            return simCase.newSim();
        }
    }
}
