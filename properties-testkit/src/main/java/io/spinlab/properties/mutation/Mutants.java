package io.spinlab.properties.mutation;

import org.objectweb.asm.ClassReader;
import org.objectweb.asm.ClassWriter;
import org.objectweb.asm.Opcodes;
import org.objectweb.asm.commons.ClassRemapper;
import org.objectweb.asm.commons.Remapper;
import org.objectweb.asm.tree.ClassNode;
import org.objectweb.asm.tree.MethodNode;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.UnaryOperator;

/**
 * Loads mutants: a copy of a Lincheck test class, and of every spinlab class it reaches, in which
 * one real impl class carries one {@link Mutation}. The test class's operations then run the
 * mutated real class, under the options the honest test uses.
 *
 * <p>The copies are renamed, not re-defined under their own names: the top-level class
 * {@code io.spinlab.impl.event.ManualResetEvent} becomes
 * {@code io.spinlab.impl.event.ManualResetEvent__<mutation>} (nested classes keep their simple
 * names under it). Lincheck's agent caches the classes it instruments by name alone, whatever
 * the class loader, so a same-named copy would be handed the real class's instrumented bytes,
 * or hand its own to the real class.
 *
 * <p>The copies are class files written into the folder the test class was loaded from (its module's
 * test classes), and loaded by the test's own (the system) class loader. Lincheck 3.7 loads the test
 * class by name through a class loader of its own whose parent is the system class loader, so a
 * copy defined in a class loader of ours is not found; and the system loader links a class that
 * {@code Lookup.defineClass} defines at once, which makes the verifier ask for copies not yet
 * defined. Every copy a test class reaches is (re)written before the first is loaded in a JVM,
 * so a copy never outlives a change to the class it copies. They are build output, removed by
 * {@code mvn clean}.
 *
 * <p>What is copied: every class under {@code io/spinlab/impl/},
 * {@code io/spinlab/properties/lincheck/} and {@code io/spinlab/properties/interleave/scenario/} that
 * the test class reaches. Everything else (the JDK, Lincheck, the specifications in {@code model},
 * the interleaving harness) is shared, so results compare with the specification's.
 *
 * <p>{@link #loadInstrumented} also passes the copied impl classes through an instrumentation (the
 * interleaving harness's breakpoints), with or without a mutation.
 */
public final class Mutants {
    private static final String IMPL = "io/spinlab/impl/";
    private static final List<String> COPIED = List.of(IMPL, "io/spinlab/properties/lincheck/",
            "io/spinlab/properties/interleave/scenario/");
    private static final Map<Mutation, Map<String, Class<?>>> DEFINED = new HashMap<>();
    private static final Map<String, Map<String, Class<?>>> INSTRUMENTED = new HashMap<>();
    private static final Set<Mutation> APPLIED = new LinkedHashSet<>();

    private Mutants() {
    }

    /**
     * The copy of {@code testClass} whose spinlab classes are copies, with {@code mutation}
     * applied to its target. Defined once per mutation: the model-checking and the stress case
     * run the same mutant classes.
     */
    public static synchronized Class<?> load(Class<?> testClass, Mutation mutation) {
        return load(testClass, mutation, "__" + mutation.id(), bytes -> bytes, DEFINED.computeIfAbsent(mutation,
                m -> new HashMap<>()));
    }

    /**
     * As {@link #load(Class, Mutation)}, with every copied {@code io/spinlab/impl/} class also passed
     * through {@code instrument} (after the mutation, on the original names), and with no mutation
     * where {@code mutation} is null: an honest copy. {@code variant} names the instrumentation in the
     * copies' names, so that differently instrumented copies of one class never meet.
     */
    public static synchronized Class<?> loadInstrumented(Class<?> testClass, Mutation mutation, String variant,
            UnaryOperator<byte[]> instrument) {
        String suffix = "__" + variant + (mutation == null ? "" : "_" + mutation.id());
        return load(testClass, mutation, suffix, instrument,
                INSTRUMENTED.computeIfAbsent(suffix, m -> new HashMap<>()));
    }

    private static Class<?> load(Class<?> testClass, Mutation mutation, String suffix, UnaryOperator<byte[]> instrument,
            Map<String, Class<?>> classes) {
        String internal = testClass.getName().replace('.', '/');
        if (!copied(internal)) {
            throw new IllegalArgumentException(testClass + " is not among the copied packages " + COPIED);
        }
        Copier copier = new Copier(mutation, suffix, instrument, testClass, classes);
        copier.defineReachable(internal);
        if (mutation != null && !classes.containsKey(mutation.target().getName().replace('.', '/'))) {
            throw new IllegalStateException(testClass + " does not reach " + mutation.target());
        }
        Class<?> copy = classes.get(internal);
        return copy != null ? copy : copier.loadCopy(internal);
    }

    /** True if {@code mutation} has been applied to a copy of its target. */
    public static synchronized boolean applied(Mutation mutation) {
        return APPLIED.contains(mutation);
    }

    private static boolean copied(String internalName) {
        for (String prefix : COPIED) {
            if (internalName.startsWith(prefix)) {
                return true;
            }
        }
        return false;
    }

    /** The copies of one mutation's classes, keyed by the original internal name. */
    private static final class Copier {
        private final Mutation mutation;
        private final UnaryOperator<byte[]> instrument;
        private final ClassLoader loader;
        private final Map<String, Class<?>> defined;
        private final String suffix;
        private final Path root;
        private final Map<String, byte[]> originals = new HashMap<>();
        private final Remapper remapper = new Remapper(Opcodes.ASM9) {
            @Override
            public String map(String internalName) {
                return copied(internalName) ? renamed(internalName) : internalName;
            }
        };

        Copier(Mutation mutation, String suffix, UnaryOperator<byte[]> instrument, Class<?> testClass,
                Map<String, Class<?>> defined) {
            this.mutation = mutation;
            this.instrument = instrument;
            this.loader = testClass.getClassLoader();
            this.defined = defined;
            this.suffix = suffix;
            this.root = classPathRoot(testClass);
        }

        /** The class-path folder {@code testClass} was loaded from (its module's test classes). */
        private static Path classPathRoot(Class<?> testClass) {
            try {
                Path root = Path.of(testClass.getProtectionDomain().getCodeSource().getLocation().toURI());
                if (!Files.isDirectory(root)) {
                    throw new IllegalStateException("the test classes are not in a folder: " + root);
                }
                return root;
            } catch (URISyntaxException e) {
                throw new IllegalStateException(e);
            }
        }

        /** {@code a/b/C$D} becomes {@code a/b/C__<mutation>$D}. */
        String renamed(String internalName) {
            int slash = internalName.lastIndexOf('/');
            int dollar = internalName.indexOf('$', slash + 1);
            return dollar < 0 ? internalName + suffix
                    : internalName.substring(0, dollar) + suffix + internalName.substring(dollar);
        }

        void defineReachable(String root) {
            Set<String> reachable = new LinkedHashSet<>();
            Deque<String> work = new ArrayDeque<>();
            work.add(root);
            while (!work.isEmpty()) {
                String name = work.poll();
                if (defined.containsKey(name) || !reachable.add(name)) {
                    continue;
                }
                for (String reference : references(original(name))) {
                    if (copied(reference) && !reachable.contains(reference)) {
                        work.add(reference);
                    }
                }
            }
            for (String name : reachable) {
                define(name);
            }
        }

        private void define(String name) {
            if (defined.containsKey(name)) {
                return;
            }
            byte[] bytes = original(name);
            if (mutation != null && name.equals(mutation.target().getName().replace('.', '/'))) {
                bytes = mutate(bytes);
                APPLIED.add(mutation);
            }
            if (name.startsWith(IMPL)) {
                bytes = instrument.apply(bytes);
            }
            ClassWriter writer = new ClassWriter(0);
            new ClassReader(bytes).accept(new ClassRemapper(writer, remapper), 0);
            Path file = root.resolve(renamed(name) + ".class");
            try {
                Files.createDirectories(file.getParent());
                // Written aside and renamed: a class loader never sees a half-written copy, and a JVM stopped
                // mid-write leaves a .partial file behind, not a truncated class.
                Path partial = Files.createTempFile(file.getParent(), file.getFileName().toString(), ".partial");
                Files.write(partial, writer.toByteArray());
                Files.move(partial, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            defined.put(name, null);
        }

        Class<?> loadCopy(String name) {
            try {
                Class<?> copy = Class.forName(renamed(name).replace('/', '.'), false, loader);
                defined.put(name, copy);
                return copy;
            } catch (ClassNotFoundException e) {
                throw new IllegalStateException("the copy of " + name + " was written to " + root
                        + " but is not on the class path", e);
            }
        }

        private byte[] original(String name) {
            return originals.computeIfAbsent(name, n -> {
                try (InputStream in = loader.getResourceAsStream(n + ".class")) {
                    if (in == null) {
                        throw new IllegalStateException("no class file for " + n);
                    }
                    return in.readAllBytes();
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            });
        }

        /** Every class name the class file mentions. */
        private static Set<String> references(byte[] bytes) {
            Set<String> names = new LinkedHashSet<>();
            Remapper collector = new Remapper(Opcodes.ASM9) {
                @Override
                public String map(String internalName) {
                    names.add(internalName);
                    return internalName;
                }
            };
            // A writer behind the remapper: a bare visitor would return no method visitors, and the
            // remapper would then skip the code.
            new ClassReader(bytes).accept(new ClassRemapper(new ClassWriter(0), collector), 0);
            return names;
        }

        /** The mutation on the original bytes (original names, so frames are computed against the real classes). */
        private byte[] mutate(byte[] original) {
            ClassNode node = new ClassNode();
            new ClassReader(original).accept(node, ClassReader.SKIP_FRAMES);
            List<MethodNode> methods = node.methods.stream().filter(mutation::matches).toList();
            if (methods.size() != 1) {
                throw new IllegalStateException(mutation + ": " + methods.size() + " methods match "
                        + mutation.method() + " (give the descriptor too when it is overloaded)");
            }
            mutation.apply(methods.get(0));
            DeadCode.remove(methods.get(0));
            ClassWriter writer = new ClassWriter(ClassWriter.COMPUTE_FRAMES) {
                @Override
                protected ClassLoader getClassLoader() {
                    return loader;
                }
            };
            node.accept(writer);
            return writer.toByteArray();
        }
    }
}
