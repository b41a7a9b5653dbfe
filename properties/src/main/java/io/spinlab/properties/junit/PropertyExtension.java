package io.spinlab.properties.junit;

import io.spinlab.properties.engine.Draws;
import io.spinlab.properties.engine.Property;
import io.spinlab.properties.engine.PropertyFailure;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.InvocationInterceptor;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolver;
import org.junit.jupiter.api.extension.ReflectiveInvocationContext;
import org.opentest4j.AssertionFailedError;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * Runs {@link PropertyTest} methods through the property engine: JUnit's own invocation of the
 * method is skipped, and the engine calls the method once per try with that try's
 * {@link Draws}, shrinks a failure and replays, exactly as {@link Property#run} does. Registered by
 * the annotation; other methods of the class are left alone.
 */
public final class PropertyExtension implements InvocationInterceptor, ParameterResolver {
    /*
     * Implementation notes
     *
     * Parameters: JUnit resolves a method's parameters before it offers the invocation to
     * interceptors. A Draws parameter resolves to null there (JUnit allows null for reference
     * types); the interceptor then skips that invocation and calls the method itself, per try,
     * with the try's Draws in those positions and JUnit's other resolved arguments unchanged.
     */

    @Override
    public boolean supportsParameter(ParameterContext parameter, ExtensionContext extension) {
        return parameter.getParameter().getType() == Draws.class
                && parameter.getDeclaringExecutable().isAnnotationPresent(PropertyTest.class);
    }

    @Override
    public Object resolveParameter(ParameterContext parameter, ExtensionContext extension) {
        return null; // the engine passes each try's Draws (see interceptTestMethod)
    }

    @Override
    public void interceptTestMethod(Invocation<Void> invocation, ReflectiveInvocationContext<Method> invocationContext,
            ExtensionContext extension) throws Throwable {
        Method method = invocationContext.getExecutable();
        PropertyTest config = method.getAnnotation(PropertyTest.class);
        if (config == null) {
            invocation.proceed();
            return;
        }
        invocation.skip();
        Object target = invocationContext.getTarget().orElse(null);
        List<Object> resolved = invocationContext.getArguments();
        Property<Draws> property = configure(config, extension.getRequiredTestClass().getSimpleName() + "."
                + method.getName());
        try {
            property.run(draws -> invoke(method, target, arguments(method, resolved, draws)));
        } catch (PropertyFailure failure) {
            throw new AssertionFailedError(failure.getMessage() + "\nWith the annotation: @PropertyTest(replay = \""
                    + failure.minimalChoices() + "\") or @PropertyTest(seed = \"" + failure.seed() + "\")", failure);
        }
    }

    static Property<Draws> configure(PropertyTest config, String defaultName) {
        Property<Draws> property = Property.forAll(Draws.drawing())
                .named(config.name().isBlank() ? defaultName : config.name())
                .maxShrinkTime(Duration.ofMillis(config.maxShrinkMillis()))
                .maxShrinkAttempts(config.maxShrinkAttempts());
        if (config.tries() < 0) {
            throw new IllegalArgumentException("@PropertyTest(tries = " + config.tries()
                    + ") is out of range; allowed 0 (the build's) or more");
        }
        if (config.tries() > 0) {
            property.tries(config.tries());
        }
        if (!config.seed().isBlank()) {
            try {
                property.seed(Long.parseLong(config.seed().strip()));
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("@PropertyTest(seed = \"" + config.seed() + "\") is not a long", e);
            }
        }
        if (!config.replay().isBlank()) {
            property.replay(config.replay());
        }
        return property;
    }

    private static Object[] arguments(Method method, List<Object> resolved, Draws draws) {
        Class<?>[] types = method.getParameterTypes();
        List<Object> arguments = new ArrayList<>(resolved);
        for (int i = 0; i < types.length; i++) {
            if (types[i] == Draws.class) {
                arguments.set(i, draws);
            }
        }
        return arguments.toArray();
    }

    private static void invoke(Method method, Object target, Object[] arguments) throws Exception {
        if (!method.trySetAccessible()) {
            throw new IllegalStateException("cannot call " + method);
        }
        try {
            method.invoke(target, arguments);
        } catch (InvocationTargetException e) {
            Throwable cause = e.getCause();
            if (cause instanceof Exception exception) {
                throw exception;
            }
            if (cause instanceof Error error) {
                throw error;
            }
            throw new IllegalStateException(cause);
        }
    }
}
