package io.spinlab.sim.memory;

import org.junit.jupiter.api.Test;

import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.LinkedHashMap;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * The computed layouts against the running JVM's own field offsets (read through
 * {@code sun.misc.Unsafe}, test-only), for the padded segment of {@code ConcurrentQueue},
 * the legacy queue's segment, and classes that exercise hole filling and reference ordering.
 */
class FieldLayoutsTest {

    private final FieldLayouts layouts = FieldLayouts.of(getClass().getClassLoader());

    @Test
    void shouldMatchTheJvmWhenClassesArePaddedChains() throws Exception {
        assertMatchesJvm(Class.forName("io.spinlab.impl.collections.ConcurrentQueue$Segment"));
        assertMatchesJvm(Class.forName("io.spinlab.impl.collections.QueueSegmentQueue$Segment"));
    }

    @Test
    void shouldMatchTheJvmWhenSubclassesFillHoles() throws Exception {
        assertMatchesJvm(Mixed.class);
        assertMatchesJvm(MixedChild.class);
        assertMatchesJvm(ByteThenLong.class);
        assertMatchesJvm(LongsAfterByte.class);
    }

    @Test
    void shouldKeepHeadAndTailTwoLinesApartWhenSegmentIsPadded() {
        String segment = "io/spinlab/impl/collections/ConcurrentQueue$Segment";
        int head = layouts.resolve(segment, "head", false).offset();
        int tail = layouts.resolve(segment, "tail", false).offset();

        assertThat(head / 64).isNotEqualTo(tail / 64);
        assertThat(tail - head).isGreaterThanOrEqualTo(128);
    }

    @Test
    void shouldResolveInheritedAndStaticFieldsWhenAsked() {
        FieldSlot inherited = layouts.resolve(internal(MixedChild.class), "l", false);
        FieldSlot statics = layouts.resolve(internal(MixedChild.class), "COUNT", true);

        assertThat(inherited.declaringClass()).isEqualTo(internal(Mixed.class));
        assertThat(inherited.isVolatile()).isTrue();
        assertThat(statics.isStatic()).isTrue();
        assertThat(statics.declaringClass()).isEqualTo(internal(Mixed.class));
        assertThat(layouts.resolve(internal(MixedChild.class), "missing", false)).isNull();
    }

    private void assertMatchesJvm(Class<?> type) throws Exception {
        Jvm jvm = Jvm.get();
        assumeTrue(jvm.defaultLayout(), "the JVM runs with compressed oops and class pointers, 12-byte headers");
        Map<String, Long> expected = new LinkedHashMap<>();
        Map<String, Long> actual = new LinkedHashMap<>();
        for (Class<?> c = type; c != Object.class; c = c.getSuperclass()) {
            for (Field f : c.getDeclaredFields()) {
                if (!Modifier.isStatic(f.getModifiers())) {
                    String key = c.getSimpleName() + "." + f.getName();
                    expected.put(key, jvm.offset(f));
                    actual.put(key, (long) layouts.resolve(internal(type), f.getName(), false).offset());
                }
            }
        }
        assertThat(actual).as("layout of " + type.getName()).isEqualTo(expected);
    }

    private static String internal(Class<?> type) {
        return type.getName().replace('.', '/');
    }

    /** The JVM's view through sun.misc.Unsafe, reflectively (test-only; production never touches it). */
    private record Jvm(Object unsafe, Method objectFieldOffset, Method arrayBaseOffset) {
        static Jvm get() throws ReflectiveOperationException {
            Class<?> type = Class.forName("sun.misc.Unsafe");
            Field field = type.getDeclaredField("theUnsafe");
            field.setAccessible(true);
            return new Jvm(field.get(null), type.getMethod("objectFieldOffset", Field.class),
                    type.getMethod("arrayBaseOffset", Class.class));
        }

        long offset(Field f) throws ReflectiveOperationException {
            return (long) objectFieldOffset.invoke(unsafe, f);
        }

        boolean defaultLayout() throws ReflectiveOperationException {
            return (int) arrayBaseOffset.invoke(unsafe, int[].class) == MemoryModel.ARRAY_BASE_BYTES
                    && (int) arrayBaseOffset.invoke(unsafe, Object[].class) == MemoryModel.ARRAY_BASE_BYTES;
        }
    }

    @SuppressWarnings("unused")
    static class Mixed {
        static volatile int COUNT;
        byte b;
        Object o;
        volatile long l;
        int i;
        short s;
        char c;
        double d;
        boolean z;
        Object o2;
    }

    @SuppressWarnings("unused")
    static class MixedChild extends Mixed {
        int j;
        byte c2;
        long m;
        Object o3;
    }

    @SuppressWarnings("unused")
    static class ByteThenLong {
        byte b;
        long l;
        int i;
        byte x;
    }

    @SuppressWarnings("unused")
    static class OneByte {
        byte b;
    }

    @SuppressWarnings("unused")
    static class LongsAfterByte extends OneByte {
        long l;
        int i;
        byte x;
    }
}
