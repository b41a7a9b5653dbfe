package io.spinlab.sim.memory;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The class loader of code run under the memory model: it defines its own, instrumented copy
 * of every class in its guest packages ({@code io.spinlab.impl.}, {@code io.spinlab.sim.workload.}
 * and any added, e.g. {@code org.agrona.}) from the same class files the application loader
 * uses, and delegates every other class to its parent. See {@link AccessInstrumenter} for what
 * the copies do differently.
 *
 * <p>The class files on disk are never changed, and classes loaded by the application loader
 * (production code, the simulator itself, a run with the memory model off) are never the
 * instrumented copies: the two sets of classes live side by side, distinguished by their
 * loader. Shared between the two worlds are the JDK and the seam:
 * {@code io.spinlab.model.*} ({@code Platform}, {@code Tuning}, {@code MachineProfile}) and the
 * simulator's engine, memory model, OS model and trace, which are never guests whatever the
 * prefixes say. A guest object therefore crosses to the parent's side only as one of those
 * types or by reflection (see {@link GuestWorkload}).
 *
 * <p>One loader per (parent, prefixes) is shared by all runs ({@link #shared}): instrumenting
 * the primitives once per JVM rather than once per run. Guest classes' static state is shared
 * by those runs, exactly as the application classes' is in runs with the memory model off.
 */
public final class GuestClassLoader extends ClassLoader {
    /*
     * Implementation notes
     *
     * Child-first only for guests: loadClass looks in its own defined classes, then, for a
     * guest name, reads the class file through the parent's resources, instruments it and
     * defines it here; any other name goes to the parent. A guest class's superclass or
     * interface outside the guest packages (AbstractQueue, Runnable) comes from the parent,
     * which is what lets a guest object be used as a Runnable or a Platform by the engine.
     *
     * Why a class loader and not an agent: an agent would transform the application loader's
     * classes too, i.e. production code in the same JVM, and would meet Lincheck's own agent in
     * the properties module. This loader touches only what it defines itself; the simulator
     * module has no Lincheck on its test class path (the enforcer bans it there) and the
     * properties module runs in its own Surefire JVM, so the two instrumentations never meet.
     */

    static {
        registerAsParallelCapable();
    }

    /** The packages loaded as guests unless told otherwise. */
    public static final List<String> DEFAULT_GUEST_PREFIXES = List.of("io.spinlab.impl.", "io.spinlab.sim.workload.");

    /** Never guests, whatever the prefixes: the JDK, ASM, the seam and the simulator's machinery. */
    private static final List<String> SHARED_PREFIXES = List.of("java.", "javax.", "jdk.", "sun.", "com.sun.",
            "org.objectweb.asm.", "io.spinlab.model.", "io.spinlab.sim.engine.", "io.spinlab.sim.memory.",
            "io.spinlab.sim.os.", "io.spinlab.sim.trace.", "io.spinlab.sim.machine.");

    private static final ConcurrentHashMap<List<Object>, GuestClassLoader> SHARED = new ConcurrentHashMap<>();

    private final List<String> guestPrefixes;
    private final FieldLayouts layouts;
    private final Transform transform;
    private final AtomicLong instrumentedClasses = new AtomicLong();
    private final AtomicLong instrumentedSites = new AtomicLong();

    /**
     * A new loader (prefer {@link #shared}).
     *
     * @param parent        where shared classes and every class file come from
     * @param guestPrefixes class-name prefixes of the guest packages, e.g. {@code org.agrona.}
     */
    public GuestClassLoader(ClassLoader parent, List<String> guestPrefixes) {
        this(parent, guestPrefixes, Transform.NONE);
    }

    /**
     * A new loader that rewrites each guest class file with {@code transform} before
     * instrumenting it (never shared: see {@link io.spinlab.sim.engine.Simulation.Builder#guestTransform}).
     */
    public GuestClassLoader(ClassLoader parent, List<String> guestPrefixes, Transform transform) {
        super("spinlab-guest", Objects.requireNonNull(parent, "parent"));
        this.guestPrefixes = normalize(guestPrefixes);
        this.layouts = FieldLayouts.of(parent);
        this.transform = Objects.requireNonNull(transform, "transform");
    }

    /** A rewrite of guest class files before instrumentation, e.g. one planted mutation. */
    @FunctionalInterface
    public interface Transform {
        /** Leaves every class as it is. */
        Transform NONE = (binaryName, original) -> original;

        /** The bytes to load for the guest class {@code binaryName} whose class file is {@code original}. */
        byte[] apply(String binaryName, byte[] original);
    }

    /** The loader shared by every run with this parent and these prefixes. */
    public static GuestClassLoader shared(ClassLoader parent, List<String> guestPrefixes) {
        List<String> prefixes = normalize(guestPrefixes);
        List<Object> key = List.of(parent, prefixes);
        return SHARED.computeIfAbsent(key, k -> new GuestClassLoader(parent, prefixes));
    }

    private static List<String> normalize(List<String> prefixes) {
        Objects.requireNonNull(prefixes, "guestPrefixes");
        if (prefixes.isEmpty()) {
            throw new IllegalArgumentException("no guest prefixes: nothing would be instrumented");
        }
        TreeSet<String> sorted = new TreeSet<>();
        for (String prefix : prefixes) {
            if (prefix == null || prefix.isBlank()) {
                throw new IllegalArgumentException("guest prefix '" + prefix + "' is blank");
            }
            sorted.add(prefix.strip());
        }
        return List.copyOf(new ArrayList<>(sorted));
    }

    /** The guest prefixes, sorted. */
    public List<String> guestPrefixes() {
        return guestPrefixes;
    }

    /** Whether {@code className} (binary name) is loaded, instrumented, by this loader. */
    public boolean isGuest(String className) {
        for (String shared : SHARED_PREFIXES) {
            if (className.startsWith(shared)) {
                return false;
            }
        }
        for (String prefix : guestPrefixes) {
            if (className.startsWith(prefix)) {
                return true;
            }
        }
        return false;
    }

    /** The field layouts this loader instruments with. */
    public FieldLayouts layouts() {
        return layouts;
    }

    /** Classes instrumented so far. */
    public long instrumentedClasses() {
        return instrumentedClasses.get();
    }

    /** Rewritten sites (volatile field accesses, VarHandle calls, JDK calls) so far. */
    public long instrumentedSites() {
        return instrumentedSites.get();
    }

    @Override
    protected Class<?> loadClass(String name, boolean resolve) throws ClassNotFoundException {
        if (!isGuest(name)) {
            return super.loadClass(name, resolve);
        }
        synchronized (getClassLoadingLock(name)) {
            Class<?> c = findLoadedClass(name);
            if (c == null) {
                c = findClass(name);
            }
            if (resolve) {
                resolveClass(c);
            }
            return c;
        }
    }

    @Override
    protected Class<?> findClass(String name) throws ClassNotFoundException {
        if (!isGuest(name)) {
            throw new ClassNotFoundException(name + " is not a guest of " + this);
        }
        String internalName = name.replace('.', '/');
        byte[] original = ClassFiles.read(getParent(), internalName);
        if (original == null) {
            throw new ClassNotFoundException(name);
        }
        byte[] transformed = transform.apply(name, original);
        AccessInstrumenter.Result result = AccessInstrumenter.instrument(transformed, layouts);
        instrumentedClasses.incrementAndGet();
        instrumentedSites.addAndGet(result.sites());
        return defineClass(name, result.bytes(), 0, result.bytes().length);
    }

    @Override
    public String toString() {
        return "GuestClassLoader" + guestPrefixes;
    }
}
