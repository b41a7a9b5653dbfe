package io.spinlab.sim.memory;

import java.lang.invoke.VarHandle;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Which field each field {@code VarHandle} of guest code accesses: guest code's
 * {@code findVarHandle}, {@code findStaticVarHandle} and {@code unreflectVarHandle} calls are
 * rerouted here (by {@link AccessInstrumenter}) and register the handle they return with the
 * field's offset from {@link FieldLayouts}. Array-element handles need no entry: the array
 * and the index locate the element. Thread-safe.
 */
public final class VarHandleTargets {
    /*
     * Implementation notes
     *
     * Keyed by the handle object, looked up only (VarHandle does not override hashCode, so the
     * map hashes by identity, which never reaches a decision). Handles are created in static
     * initializers, before a run; a run only reads the map. A handle that was not registered
     * (made by code outside the guest packages and passed in) is costed as the object's first
     * field, offset 12, and says so in unknown().
     */

    /** Offset used for a field handle nobody registered. */
    public static final int UNKNOWN_OFFSET = FieldLayouts.HEADER_BYTES;

    private static final ConcurrentHashMap<VarHandle, Target> TARGETS = new ConcurrentHashMap<>();

    private VarHandleTargets() {
    }

    /**
     * Where a field handle points.
     *
     * @param statics for a static field, the class whose statics hold it (the memory model's key); else null
     * @param offset  the field's byte offset
     */
    public record Target(Class<?> statics, int offset) {
    }

    /** The target of {@code handle}, or null if it was not registered. */
    public static Target of(VarHandle handle) {
        return TARGETS.get(handle);
    }

    /** Registers a handle for field {@code name} of {@code receiver} (declared there or above) and returns it. */
    public static VarHandle register(VarHandle handle, Class<?> receiver, String name, boolean isStatic) {
        Objects.requireNonNull(handle, "handle");
        FieldSlot slot = layoutsOf(receiver).resolve(internalName(receiver), name, isStatic);
        int offset = slot == null ? UNKNOWN_OFFSET : slot.offset();
        TARGETS.put(handle, new Target(isStatic ? declaring(receiver, slot) : null, offset));
        return handle;
    }

    /** The class that declares a static field found from {@code receiver}: the key its statics go by. */
    private static Class<?> declaring(Class<?> receiver, FieldSlot slot) {
        if (slot == null || slot.declaringClass().equals(internalName(receiver))) {
            return receiver;
        }
        try {
            return Class.forName(slot.declaringClass().replace('/', '.'), false, receiver.getClassLoader());
        } catch (ClassNotFoundException e) {
            return receiver;
        }
    }

    /** Registers a handle made from a reflected field. */
    public static VarHandle register(VarHandle handle, Field field) {
        return register(handle, field.getDeclaringClass(), field.getName(), Modifier.isStatic(field.getModifiers()));
    }

    private static FieldLayouts layoutsOf(Class<?> type) {
        ClassLoader loader = type.getClassLoader();
        if (loader instanceof GuestClassLoader guest) {
            return guest.layouts();
        }
        return FieldLayouts.of(loader);
    }

    private static String internalName(Class<?> type) {
        return type.getName().replace('.', '/');
    }
}
