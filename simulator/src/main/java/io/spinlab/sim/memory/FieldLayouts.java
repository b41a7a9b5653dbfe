package io.spinlab.sim.memory;

import org.objectweb.asm.ClassReader;
import org.objectweb.asm.ClassVisitor;
import org.objectweb.asm.FieldVisitor;
import org.objectweb.asm.Opcodes;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Function;

/**
 * Field layouts computed from class files, the way HotSpot (JDK 15 and later, 64-bit, with
 * compressed oops and compressed class pointers, the defaults below a 32 GiB heap) lays out
 * objects: a 12-byte header; superclass fields keep their offsets; each class's primitive
 * fields are placed largest first (declaration order among equals), then its reference fields
 * (4 bytes) in declaration order — references first when the superclass layout ends with a
 * reference —, each at the lowest offset with room and natural alignment, holes left by the
 * superclass included. Padding chains ({@code …Pad1 → …Fields → …Pad2}) therefore come out as
 * on a real JVM; {@code FieldLayoutsTest} compares against the running JVM's offsets.
 *
 * <p>Static fields are laid out the same way in a space of their own per class, from offset 0.
 * A class whose bytes cannot be found is taken to declare no field. Thread-safe.
 */
public final class FieldLayouts {
    /*
     * Implementation notes
     *
     * Approximations, each documented where it bites: @Contended is ignored (the production
     * code does not use it); compact object headers (-XX:+UseCompactObjectHeaders, 8 bytes)
     * and uncompressed oops are not modelled; the statics of a real class live in its mirror
     * after java.lang.Class's own fields, which only shifts every static by one constant.
     *
     * Why from class files, not reflection: the instrumenting class loader needs offsets while
     * it transforms a class, before the class (or its superclass) is defined; the class file
     * also gives the declaration order, which reflection does not promise.
     */

    /** Bytes of an object header: 8 mark + 4 compressed class pointer. */
    public static final int HEADER_BYTES = 12;
    /** Bytes of a reference field with compressed oops. */
    public static final int REFERENCE_BYTES = 4;

    private final Function<String, byte[]> classBytes;
    private final Map<String, ClassLayout> layouts = new HashMap<>();

    /**
     * @param classBytes the class file of an internal class name ({@code java/lang/Object}), or
     *                   null if there is none
     */
    public FieldLayouts(Function<String, byte[]> classBytes) {
        this.classBytes = Objects.requireNonNull(classBytes, "classBytes");
    }

    /** Layouts of classes found as resources of {@code loader} (the JDK's through the system loader). */
    public static FieldLayouts of(ClassLoader loader) {
        return new FieldLayouts(name -> ClassFiles.read(loader, name));
    }

    /** The layout of {@code internalName} (e.g. {@code io/spinlab/impl/lock/SpinLock}). */
    public synchronized ClassLayout layout(String internalName) {
        ClassLayout layout = layouts.get(internalName);
        if (layout == null) {
            layout = compute(internalName);
            layouts.put(internalName, layout);
        }
        return layout;
    }

    /**
     * The field a {@code getfield}/{@code putfield} ({@code isStatic} false) or
     * {@code getstatic}/{@code putstatic} (true) on {@code owner.name} resolves to, by the
     * JVM's field resolution; null if none is found.
     */
    public synchronized FieldSlot resolve(String owner, String name, boolean isStatic) {
        return isStatic ? resolveStatic(owner, name) : resolveInstance(owner, name);
    }

    private FieldSlot resolveInstance(String owner, String name) {
        for (String c = owner; c != null; c = layout(c).superName()) {
            FieldSlot slot = layout(c).declared(name, false);
            if (slot != null) {
                return slot;
            }
        }
        return null;
    }

    private FieldSlot resolveStatic(String owner, String name) {
        if (owner == null) {
            return null;
        }
        ClassLayout layout = layout(owner);
        FieldSlot slot = layout.declared(name, true);
        if (slot != null) {
            return slot;
        }
        for (String itf : layout.interfaces()) {
            slot = resolveStatic(itf, name);
            if (slot != null) {
                return slot;
            }
        }
        return resolveStatic(layout.superName(), name);
    }

    /** Bytes of one element of an array whose component type is {@code componentType}. */
    public static int arrayElementBytes(Class<?> componentType) {
        if (!componentType.isPrimitive()) {
            return REFERENCE_BYTES;
        }
        return primitiveBytes(componentType.descriptorString().charAt(0));
    }

    static int primitiveBytes(char descriptor) {
        return switch (descriptor) {
            case 'J', 'D' -> 8;
            case 'I', 'F' -> 4;
            case 'S', 'C' -> 2;
            case 'B', 'Z' -> 1;
            default -> REFERENCE_BYTES;
        };
    }

    private ClassLayout compute(String internalName) {
        byte[] bytes = classBytes.apply(internalName);
        if (bytes == null) {
            return ClassLayout.empty(internalName);
        }
        Declared declared = Declared.read(bytes);
        Space instance;
        if (declared.superName == null) {
            instance = Space.withHeader(HEADER_BYTES);
        } else {
            instance = layout(declared.superName).instanceSpace().copy();
        }
        Space statics = Space.withHeader(0);
        List<FieldSlot> slots = new ArrayList<>();
        place(internalName, declared.fields, false, instance, slots);
        place(internalName, declared.fields, true, statics, slots);
        return new ClassLayout(internalName, declared.superName, declared.interfaces, slots, instance);
    }

    private static void place(String owner, List<DeclaredField> fields, boolean statics, Space space,
            List<FieldSlot> out) {
        List<DeclaredField> primitives = new ArrayList<>();
        List<DeclaredField> references = new ArrayList<>();
        for (DeclaredField f : fields) {
            if (f.isStatic() != statics) {
                continue;
            }
            if (f.isReference()) {
                references.add(f);
            } else {
                primitives.add(f);
            }
        }
        primitives.sort(Comparator.comparingInt(DeclaredField::size).reversed()
                .thenComparingInt(DeclaredField::index));
        boolean referencesFirst = space.endsWithReference;
        if (referencesFirst) {
            placeAll(owner, references, space, out);
            placeAll(owner, primitives, space, out);
        } else {
            placeAll(owner, primitives, space, out);
            placeAll(owner, references, space, out);
        }
    }

    private static void placeAll(String owner, List<DeclaredField> fields, Space space, List<FieldSlot> out) {
        for (DeclaredField f : fields) {
            int offset = space.allocate(f.size(), f.isReference());
            out.add(new FieldSlot(owner, f.name(), f.descriptor(), offset, f.size(), f.isVolatile(), f.isStatic()));
        }
    }

    /** The field layout of one class: its own fields' slots and the space its subclasses extend. */
    public static final class ClassLayout {
        private final String internalName;
        private final String superName;
        private final List<String> interfaces;
        private final List<FieldSlot> declared;
        private final Space instanceSpace;

        ClassLayout(String internalName, String superName, List<String> interfaces, List<FieldSlot> declared,
                Space instanceSpace) {
            this.internalName = internalName;
            this.superName = superName;
            this.interfaces = List.copyOf(interfaces);
            this.declared = List.copyOf(declared);
            this.instanceSpace = instanceSpace;
        }

        static ClassLayout empty(String internalName) {
            return new ClassLayout(internalName, null, List.of(), List.of(), Space.withHeader(HEADER_BYTES));
        }

        public String internalName() {
            return internalName;
        }

        /** The superclass's internal name, null for {@code java/lang/Object} (or a class not found). */
        public String superName() {
            return superName;
        }

        public List<String> interfaces() {
            return interfaces;
        }

        /** The fields this class declares, instance and static, with their slots. */
        public List<FieldSlot> declaredFields() {
            return declared;
        }

        /** Bytes up to the end of the last instance field (header included), before alignment. */
        public int instanceEnd() {
            return instanceSpace.end;
        }

        /** The declared field {@code name} of the given kind, or null. */
        public FieldSlot declared(String name, boolean isStatic) {
            for (FieldSlot slot : declared) {
                if (slot.name().equals(name) && slot.isStatic() == isStatic) {
                    return slot;
                }
            }
            return null;
        }

        Space instanceSpace() {
            return instanceSpace;
        }

        @Override
        public String toString() {
            return "ClassLayout[" + internalName + ", " + declared + ", end " + instanceSpace.end + "]";
        }
    }

    /** The occupied bytes of a layout: an end and the holes below it. */
    static final class Space {
        /** Holes as [start, end) pairs, ascending. */
        private final List<int[]> holes;
        int end;
        boolean endsWithReference;

        private Space(List<int[]> holes, int end, boolean endsWithReference) {
            this.holes = holes;
            this.end = end;
            this.endsWithReference = endsWithReference;
        }

        static Space withHeader(int headerBytes) {
            return new Space(new ArrayList<>(), headerBytes, false);
        }

        Space copy() {
            List<int[]> copied = new ArrayList<>(holes.size());
            for (int[] hole : holes) {
                copied.add(hole.clone());
            }
            return new Space(copied, end, endsWithReference);
        }

        /** The lowest naturally aligned offset with {@code size} free bytes; marks them used. */
        int allocate(int size, boolean reference) {
            for (int i = 0; i < holes.size(); i++) {
                int[] hole = holes.get(i);
                int start = align(hole[0], size);
                if (start + size <= hole[1]) {
                    holes.remove(i);
                    if (start + size < hole[1]) {
                        holes.add(i, new int[] {start + size, hole[1]});
                    }
                    if (hole[0] < start) {
                        holes.add(i, new int[] {hole[0], start});
                    }
                    return start;
                }
            }
            int start = align(end, size);
            if (start > end) {
                holes.add(new int[] {end, start});
            }
            end = start + size;
            endsWithReference = reference;
            return start;
        }

        private static int align(int offset, int size) {
            return (offset + size - 1) / size * size;
        }
    }

    /** A field as the class file declares it. */
    record DeclaredField(String name, String descriptor, int access, int index) {
        boolean isStatic() {
            return (access & Opcodes.ACC_STATIC) != 0;
        }

        boolean isVolatile() {
            return (access & Opcodes.ACC_VOLATILE) != 0;
        }

        boolean isReference() {
            char c = descriptor.charAt(0);
            return c == 'L' || c == '[';
        }

        int size() {
            return isReference() ? REFERENCE_BYTES : primitiveBytes(descriptor.charAt(0));
        }
    }

    /** What a class file declares: superclass, interfaces, fields in order. */
    static final class Declared extends ClassVisitor {
        String superName;
        List<String> interfaces = List.of();
        final List<DeclaredField> fields = new ArrayList<>();

        private Declared() {
            super(Opcodes.ASM9);
        }

        static Declared read(byte[] bytes) {
            Declared d = new Declared();
            new ClassReader(bytes).accept(d, ClassReader.SKIP_CODE | ClassReader.SKIP_DEBUG | ClassReader.SKIP_FRAMES);
            return d;
        }

        @Override
        public void visit(int version, int access, String name, String signature, String superName,
                String[] interfaces) {
            this.superName = superName;
            this.interfaces = interfaces == null ? List.of() : List.of(interfaces);
        }

        @Override
        public FieldVisitor visitField(int access, String name, String descriptor, String signature, Object value) {
            fields.add(new DeclaredField(name, descriptor, access, fields.size()));
            return null;
        }
    }
}
