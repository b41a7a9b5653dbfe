package io.spinlab.impl.architecture;

import org.objectweb.asm.ClassReader;
import org.objectweb.asm.ClassVisitor;
import org.objectweb.asm.MethodVisitor;
import org.objectweb.asm.Opcodes;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/**
 * Reads compiled classes and lists every breach of the seam rule of DESIGN.md: outside
 * {@code HardwarePlatform}, impl code must not touch the processor, the clock or the JDK's own
 * blocking machinery, because the simulator would not see it.
 */
final class SeamRuleScanner {

    /** The one class allowed to touch the hardware. */
    static final String HARDWARE_PLATFORM = "io/spinlab/impl/platform/HardwarePlatform";

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
        return null;
    }
}
