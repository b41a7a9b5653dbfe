package io.spinlab.impl.architecture;

import org.objectweb.asm.ClassReader;
import org.objectweb.asm.ClassVisitor;
import org.objectweb.asm.ConstantDynamic;
import org.objectweb.asm.Handle;
import org.objectweb.asm.MethodVisitor;
import org.objectweb.asm.Opcodes;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;

/**
 * Reads compiled classes and lists every breach of the seam rule of DESIGN.md: outside
 * {@code HardwarePlatform}, impl code must not touch the processor, the clock or the JDK's own
 * blocking machinery, because the simulator would not see it.
 *
 * <p>A forbidden method is caught however it is reached: called directly, named by a method
 * reference or lambda ({@code Thread::onSpinWait} compiles to an {@code invokedynamic} whose
 * bootstrap arguments hold a method handle), loaded as a method-handle constant, or looked up
 * reflectively. The last is caught by its means: impl may not use {@code java.lang.reflect},
 * {@code Class.forName}/{@code getMethod}/{@code getDeclaredField}/..., or the method-handle
 * lookups ({@code Lookup.findStatic}, {@code findVirtual}, {@code unreflect}, ...), since a
 * name in a string cannot be checked. VarHandle mechanics stay allowed:
 * {@code MethodHandles.lookup()}, {@code Lookup.findVarHandle}/{@code findStaticVarHandle} and
 * the array/byte-view VarHandle factories.
 */
final class SeamRuleScanner {

    /** The one class allowed to touch the hardware. */
    static final String HARDWARE_PLATFORM = "io/spinlab/impl/platform/HardwarePlatform";

    /** What impl may call on MethodHandles and its Lookup: the VarHandle mechanics, nothing reflective. */
    private static final Set<String> VAR_HANDLE_MECHANICS = Set.of("lookup", "findVarHandle", "findStaticVarHandle",
            "arrayElementVarHandle", "byteArrayViewVarHandle", "byteBufferViewVarHandle");

    /** Methods of java.lang.Class that find members or classes by name. */
    private static final Set<String> CLASS_REFLECTION = Set.of("forName", "getMethod", "getMethods",
            "getDeclaredMethod", "getDeclaredMethods", "getField", "getFields", "getDeclaredField", "getDeclaredFields",
            "getConstructor", "getConstructors", "getDeclaredConstructor", "getDeclaredConstructors",
            "getRecordComponents", "getEnclosingMethod", "getEnclosingConstructor");

    private SeamRuleScanner() {
    }

    /** Every violation in the class files under {@code classesDir}. */
    static List<String> scanDirectory(Path classesDir) {
        List<String> violations = new ArrayList<>();
        try (Stream<Path> files = Files.walk(classesDir)) {
            for (Path file : files.filter(f -> f.toString().endsWith(".class")).sorted().toList()) {
                try (InputStream in = Files.newInputStream(file)) {
                    violations.addAll(scan(in.readAllBytes()));
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return violations;
    }

    /** Every violation in one class file. */
    static List<String> scan(byte[] classFile) {
        List<String> violations = new ArrayList<>();
        ClassReader reader = new ClassReader(classFile);
        String className = reader.getClassName();
        if (className.equals(HARDWARE_PLATFORM) || className.startsWith(HARDWARE_PLATFORM + "$")) {
            return violations;
        }
        reader.accept(new ClassVisitor(Opcodes.ASM9) {
            @Override
            public MethodVisitor visitMethod(int access, String name, String descriptor, String signature,
                                             String[] exceptions) {
                String where = className.replace('/', '.') + "." + name;
                if ((access & Opcodes.ACC_SYNCHRONIZED) != 0) {
                    violations.add(where + ": synchronized method");
                }
                return new MethodVisitor(Opcodes.ASM9) {
                    @Override
                    public void visitInsn(int opcode) {
                        if (opcode == Opcodes.MONITORENTER) {
                            violations.add(where + ": synchronized block");
                        }
                    }

                    @Override
                    public void visitMethodInsn(int opcode, String owner, String method, String desc, boolean itf) {
                        String problem = forbiddenCall(owner, method);
                        if (problem != null) {
                            violations.add(where + ": calls " + owner.replace('/', '.') + "." + method + " (" + problem
                                    + ")");
                        }
                    }

                    @Override
                    public void visitInvokeDynamicInsn(String method, String desc, Handle bootstrap,
                                                       Object... arguments) {
                        handle(bootstrap, "bootstrap method");
                        for (Object argument : arguments) {
                            constant(argument, "method reference");
                        }
                    }

                    @Override
                    public void visitLdcInsn(Object value) {
                        constant(value, "method handle constant");
                    }

                    /** A bootstrap argument or an ldc constant: a handle, or a dynamic constant holding some. */
                    private void constant(Object value, String how) {
                        if (value instanceof Handle h) {
                            handle(h, how);
                        } else if (value instanceof ConstantDynamic dynamic) {
                            handle(dynamic.getBootstrapMethod(), how);
                            for (int i = 0; i < dynamic.getBootstrapMethodArgumentCount(); i++) {
                                constant(dynamic.getBootstrapMethodArgument(i), how);
                            }
                        }
                    }

                    private void handle(Handle h, String how) {
                        String problem = forbiddenCall(h.getOwner(), h.getName());
                        if (problem != null) {
                            violations.add(where + ": " + how + " " + h.getOwner().replace('/', '.') + "::"
                                    + h.getName() + " (" + problem + ")");
                        }
                    }

                    @Override
                    public void visitTypeInsn(int opcode, String type) {
                        String problem = forbiddenType(type);
                        if (problem != null) {
                            violations.add(where + ": uses " + type.replace('/', '.') + " (" + problem + ")");
                        }
                    }
                };
            }
        }, ClassReader.SKIP_DEBUG);
        return violations;
    }

    private static String forbiddenCall(String owner, String method) {
        if (owner.equals("java/lang/Thread")) {
            return switch (method) {
                case "onSpinWait", "yield", "sleep", "sleepNanos" -> "processor or scheduler: use Platform";
                default -> null;
            };
        }
        if (owner.equals("java/lang/System") && (method.equals("nanoTime") || method.equals("currentTimeMillis"))) {
            return "clock: use Platform.nanoTime";
        }
        if (owner.equals("java/lang/Object")
                && (method.equals("wait") || method.equals("notify") || method.equals("notifyAll"))) {
            return "JDK monitor: use a spinlab lock";
        }
        if (owner.equals("java/util/concurrent/ThreadLocalRandom")) {
            return "hidden randomness: use Platform.nextRandom";
        }
        if (owner.equals("java/lang/Class") && CLASS_REFLECTION.contains(method)) {
            return "reflection: a member found by name escapes this check";
        }
        if ((owner.equals("java/lang/invoke/MethodHandles") || owner.equals("java/lang/invoke/MethodHandles$Lookup"))
                && !VAR_HANDLE_MECHANICS.contains(method)) {
            return "method-handle lookup: only VarHandle mechanics are allowed";
        }
        if (owner.equals("java/lang/invoke/MethodHandle")) {
            return "method-handle call: a target found by name escapes this check";
        }
        return forbiddenType(owner);
    }

    private static String forbiddenType(String type) {
        if (type.equals("java/util/concurrent/locks/LockSupport")) {
            return "parking: use Platform.park";
        }
        if (type.startsWith("java/util/concurrent/locks/")) {
            return "JDK lock: use a spinlab lock";
        }
        if (type.startsWith("java/util/concurrent/atomic/")) {
            return "atomic wrapper: use a VarHandle on a volatile field";
        }
        if (type.equals("sun/misc/Unsafe") || type.equals("jdk/internal/misc/Unsafe")) {
            return "Unsafe: use a VarHandle";
        }
        if (type.startsWith("java/lang/reflect/")) {
            return "reflection: a member found by name escapes this check";
        }
        return null;
    }
}
