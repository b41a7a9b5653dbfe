package io.spinlab.junit;

import io.spinlab.sim.memory.GuestClassLoader;

import java.io.Serializable;
import java.lang.invoke.MethodHandleInfo;
import java.lang.invoke.MethodType;
import java.lang.invoke.SerializedLambda;
import java.lang.reflect.Constructor;
import java.lang.reflect.Executable;
import java.lang.reflect.InvocationHandler;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.util.Arrays;
import java.util.Objects;

/**
 * Moves a lambda or method reference written in a test class into the instrumented copy of that
 * class: the same code, loaded by the simulation's guest class loader, so that its volatile
 * accesses are scheduling points and its spins, parks and clock reads are the simulated
 * machine's. A lambda that is already guest code is returned as it is.
 */
final class GuestCode {
    /*
     * Implementation notes
     *
     * The functional interfaces of this package extend Serializable, so javac compiles every
     * lambda given to them with a writeReplace that returns a SerializedLambda: the class and
     * the synthetic method holding the body, and the captured values. The body is looked up by
     * name and descriptor in the guest copy of the class and called through a proxy of the same
     * (shared, non-guest) interface.
     *
     * Captured values: JDK and other non-guest objects cross as they are (both worlds share
     * those classes). A captured `this` of the test class becomes a new guest instance made
     * with the no-argument constructor, so field initializers run again and fields set by the
     * caller are not seen. Any other guest-class object was built by uninstrumented code on the
     * wrong side of the loader and is refused: build it inside the lambda.
     */

    private GuestCode() {
    }

    /**
     * {@code code} as guest code of {@code loader}, as an {@code type}.
     *
     * @param what names the argument in errors, e.g. {@code "the body given to Sims.run"}
     * @throws IllegalArgumentException with one line saying what to do if it cannot be moved
     */
    static <T> T rebind(Object code, Class<T> type, GuestClassLoader loader, String what) {
        Objects.requireNonNull(code, what);
        if (code.getClass().getClassLoader() == loader) {
            return type.cast(code);
        }
        SerializedLambda lambda = serialized(code, what);
        String owner = lambda.getImplClass().replace('/', '.');
        if (!loader.isGuest(owner)) {
            throw new IllegalArgumentException(what + " is code of " + owner + ", which is not in a guest package "
                    + loader.guestPrefixes() + "; add its package with guestPackages");
        }
        Class<?> guestOwner;
        try {
            guestOwner = Class.forName(owner, true, loader);
        } catch (ClassNotFoundException e) {
            throw new IllegalArgumentException("cannot load the guest copy of " + owner + ": " + e.getMessage(), e);
        }
        Executable body = find(guestOwner, lambda);
        Object[] captured = new Object[lambda.getCapturedArgCount()];
        for (int i = 0; i < captured.length; i++) {
            captured[i] = crossing(lambda.getCapturedArg(i), i, guestOwner, loader, what);
        }
        body.setAccessible(true);
        InvocationHandler handler = new Forwarder(body, captured, owner);
        return type.cast(Proxy.newProxyInstance(type.getClassLoader(), new Class<?>[] {type}, handler));
    }

    private static SerializedLambda serialized(Object code, String what) {
        SerializedLambda lambda = lambdaOf(code);
        if (lambda == null) {
            throw new IllegalArgumentException(what + " (" + code.getClass().getName() + ") is neither guest code nor "
                    + "a lambda: pass a lambda or method reference written in the test class");
        }
        return lambda;
    }

    /** The serialized form of the lambda {@code code}, or null if it is not a serializable lambda. */
    static SerializedLambda lambdaOf(Object code) {
        if (!(code instanceof Serializable)) {
            return null;
        }
        try {
            Method replace = code.getClass().getDeclaredMethod("writeReplace");
            replace.setAccessible(true);
            return replace.invoke(code) instanceof SerializedLambda lambda ? lambda : null;
        } catch (ReflectiveOperationException | RuntimeException e) {
            return null;
        }
    }

    private static Executable find(Class<?> owner, SerializedLambda lambda) {
        String name = lambda.getImplMethodName();
        String descriptor = lambda.getImplMethodSignature();
        if (lambda.getImplMethodKind() == MethodHandleInfo.REF_newInvokeSpecial) {
            for (Constructor<?> c : owner.getDeclaredConstructors()) {
                if (descriptor(c.getParameterTypes(), void.class).equals(descriptor)) {
                    return c;
                }
            }
        } else {
            for (Class<?> c = owner; c != null; c = c.getSuperclass()) {
                for (Method m : c.getDeclaredMethods()) {
                    if (m.getName().equals(name) && descriptor(m.getParameterTypes(), m.getReturnType())
                            .equals(descriptor)) {
                        return m;
                    }
                }
            }
        }
        throw new IllegalArgumentException("the guest copy of " + owner.getName() + " has no " + name + descriptor);
    }

    private static String descriptor(Class<?>[] parameters, Class<?> returns) {
        return MethodType.methodType(returns, parameters).toMethodDescriptorString();
    }

    private static Object crossing(Object value, int index, Class<?> guestOwner, GuestClassLoader loader,
            String what) {
        if (value == null || value.getClass().getClassLoader() == loader || !loader.isGuest(value.getClass().getName())) {
            return value;
        }
        if (index == 0 && value.getClass().getName().equals(guestOwner.getName())) {
            try {
                Constructor<?> constructor = guestOwner.getDeclaredConstructor();
                constructor.setAccessible(true);
                return constructor.newInstance();
            } catch (NoSuchMethodException e) {
                throw new IllegalArgumentException(what + " uses 'this' of " + guestOwner.getName()
                        + ", which has no no-argument constructor; make the lambda static or add one", e);
            } catch (InvocationTargetException e) {
                throw new IllegalStateException("the constructor of the guest " + guestOwner.getName() + " threw "
                        + e.getCause(), e.getCause());
            } catch (ReflectiveOperationException e) {
                throw new IllegalStateException("cannot construct the guest " + guestOwner.getName() + ": " + e, e);
            }
        }
        throw new IllegalArgumentException(what + " captures a " + value.getClass().getName() + " built outside the "
                + "simulation, uninstrumented; build it inside the lambda, or capture only JDK values");
    }

    /** Calls the guest body with the captured values first, then the call's arguments. */
    private record Forwarder(Executable body, Object[] captured, String owner) implements InvocationHandler {

        @Override
        public Object invoke(Object proxy, Method method, Object[] args) throws Throwable {
            if (method.getDeclaringClass() == Object.class) {
                return switch (method.getName()) {
                    case "equals" -> proxy == args[0];
                    case "hashCode" -> System.identityHashCode(proxy);
                    default -> "guest " + owner + "." + body.getName();
                };
            }
            Object[] all = new Object[captured.length + (args == null ? 0 : args.length)];
            System.arraycopy(captured, 0, all, 0, captured.length);
            if (args != null) {
                System.arraycopy(args, 0, all, captured.length, args.length);
            }
            try {
                return switch (body) {
                    case Constructor<?> c -> c.newInstance(all);
                    case Method m when java.lang.reflect.Modifier.isStatic(m.getModifiers()) -> m.invoke(null, all);
                    case Method m -> m.invoke(all[0], Arrays.copyOfRange(all, 1, all.length));
                    default -> throw new AssertionError(body);
                };
            } catch (InvocationTargetException e) {
                throw e.getCause();
            }
        }
    }
}
