package io.spinlab.sim.memory;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;

/** Reads class files as resources, without defining the classes. */
final class ClassFiles {

    private ClassFiles() {
    }

    /**
     * The bytes of class {@code internalName} as a resource of {@code loader}, or of the system
     * loader (which sees the JDK's modules) if {@code loader} has none; null if neither has it.
     */
    static byte[] read(ClassLoader loader, String internalName) {
        String resource = internalName + ".class";
        try (InputStream in = open(loader, resource)) {
            return in == null ? null : in.readAllBytes();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read class file " + resource, e);
        }
    }

    private static InputStream open(ClassLoader loader, String resource) {
        InputStream in = loader == null ? null : loader.getResourceAsStream(resource);
        return in != null ? in : ClassLoader.getSystemResourceAsStream(resource);
    }
}
