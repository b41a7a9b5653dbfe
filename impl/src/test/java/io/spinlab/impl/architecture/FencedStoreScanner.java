package io.spinlab.impl.architecture;

import org.objectweb.asm.ClassReader;
import org.objectweb.asm.ClassVisitor;
import org.objectweb.asm.MethodVisitor;
import org.objectweb.asm.Opcodes;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Stream;

/**
 * Finds the fenced stores of compiled classes, constructors included: a write of a {@code volatile}
 * field (the field found in the owner's class or a superclass) and {@code VarHandle.setVolatile}.
 * A Java volatile store is a full fence; a .NET volatile field write or {@code Volatile.Write} is
 * a release store, so every fenced store of a port has to be one that .NET fences too (an
 * Interlocked operation) or one the Java algorithm needs for a store→load order, or one paid once per
 * object in its constructor. Each site is named {@code Class.method field} ({@code Class.<init> field}
 * for a constructor, {@code setVolatile} for a VarHandle call), package-relative to
 * {@code io.spinlab.impl}, once per method and field. Static initializers (once per class) are not
 * scanned.
 */
final class FencedStoreScanner {
    private static final String PREFIX = "io.spinlab.impl.";

    private FencedStoreScanner() {
    }

    /** The fenced-store sites of every class file under {@code classesDir}. */
    static Set<String> scanDirectory(Path classesDir, ClassLoader loader) {
        Set<String> sites = new TreeSet<>();
        try (Stream<Path> files = Files.walk(classesDir)) {
            for (Path file : files.filter(f -> f.toString().endsWith(".class")).sorted().toList()) {
                sites.addAll(scan(Files.readAllBytes(file), loader));
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return sites;
    }

    /** The fenced-store sites of one class file; field owners are resolved through {@code loader}. */
    static Set<String> scan(byte[] classFile, ClassLoader loader) {
        Set<String> sites = new TreeSet<>();
        ClassReader reader = new ClassReader(classFile);
        String className = shortName(reader.getClassName());
        reader.accept(new ClassVisitor(Opcodes.ASM9) {
            @Override
            public MethodVisitor visitMethod(int access, String name, String descriptor, String signature,
                                             String[] exceptions) {
                if (name.equals("<clinit>")) {
                    return null; // once per class, before any thread can see it
                }
                String where = className + "." + name;
                return new MethodVisitor(Opcodes.ASM9) {
                    @Override
                    public void visitFieldInsn(int opcode, String owner, String field, String fieldDescriptor) {
                        if ((opcode == Opcodes.PUTFIELD || opcode == Opcodes.PUTSTATIC)
                                && isVolatile(owner, field, loader)) {
                            sites.add(where + " " + field);
                        }
                    }

                    @Override
                    public void visitMethodInsn(int opcode, String owner, String method, String methodDescriptor,
                                                boolean isInterface) {
                        if (owner.equals("java/lang/invoke/VarHandle") && method.equals("setVolatile")) {
                            sites.add(where + " setVolatile");
                        }
                    }
                };
            }
        }, ClassReader.SKIP_DEBUG);
        return sites;
    }

    private static boolean isVolatile(String owner, String field, ClassLoader loader) {
        Class<?> c;
        try {
            c = Class.forName(owner.replace('/', '.'), false, loader);
        } catch (ClassNotFoundException e) {
            throw new IllegalStateException("cannot load " + owner + " to resolve its field " + field, e);
        }
        for (; c != null; c = c.getSuperclass()) {
            for (Field f : c.getDeclaredFields()) {
                if (f.getName().equals(field)) {
                    return Modifier.isVolatile(f.getModifiers());
                }
            }
        }
        throw new IllegalStateException("no field " + field + " in " + owner + " or its superclasses");
    }

    private static String shortName(String internalName) {
        String dotted = internalName.replace('/', '.');
        return dotted.startsWith(PREFIX) ? dotted.substring(PREFIX.length()) : dotted;
    }
}
