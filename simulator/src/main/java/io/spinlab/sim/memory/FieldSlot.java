package io.spinlab.sim.memory;

/**
 * Where one field lives in its object (or, for a static field, in its class's statics), as
 * {@link FieldLayouts} lays it out.
 *
 * @param declaringClass internal name of the class that declares the field
 * @param name           the field's name
 * @param descriptor     its type descriptor
 * @param offset         byte offset from the start of the object (header included) or of the statics
 * @param size           bytes it occupies
 * @param isVolatile     declared {@code volatile}
 * @param isStatic       declared {@code static}
 */
public record FieldSlot(String declaringClass, String name, String descriptor, int offset, int size,
                        boolean isVolatile, boolean isStatic) {
}
