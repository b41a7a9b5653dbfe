package io.spinlab.properties.engine;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Objects;
import java.util.function.BiFunction;

/**
 * The built-in generators and combinators. Each maps choice 0 to its simplest value, so
 * shrinking choices toward 0 shrinks examples toward simple ones: integers toward 0 (or the
 * bound nearest it), booleans toward false, choices toward the first option, lists toward
 * short lists of simple elements.
 */
public final class Gens {

    private Gens() {
    }

    /** Integers in {@code [min, max]}, shrinking toward 0 if in range, else toward the nearer bound. */
    public static Gen<Integer> integers(int min, int max) {
        Gen<Long> longs = longs(min, max);
        return source -> longs.generate(source).intValue();
    }

    /** Longs in {@code [min, max]}, shrinking as {@link #integers}. */
    public static Gen<Long> longs(long min, long max) {
        if (min > max) {
            throw new IllegalArgumentException("empty range [" + min + ", " + max + "]: min must be <= max");
        }
        if (min >= 0) {
            return source -> min + source.draw(max - min);
        }
        if (max <= 0) {
            return source -> max - source.draw(max - min);
        }
        // The range holds 0: zig-zag 0, -1, 1, -2, 2, ... limited to the range.
        long negatives = -(min + 1); // how many values below -1... as a non-negative count
        return source -> {
            long span = Math.max(max, negatives + 1);
            long c = source.draw(saturatedDoublePlusOne(span));
            long magnitude = (c + 1) / 2;
            long value = (c & 1) == 1 ? -magnitude : magnitude;
            if (value > max) {
                return max;
            }
            return Math.max(value, min);
        };
    }

    private static long saturatedDoublePlusOne(long span) {
        return span > (Long.MAX_VALUE - 1) / 2 ? Long.MAX_VALUE : span * 2 + 1;
    }

    public static Gen<Boolean> booleans() {
        return source -> source.draw(1) == 1;
    }

    /** Always {@code value}; uses no choices. */
    public static <T> Gen<T> constant(T value) {
        return source -> value;
    }

    /** One of {@code options}, shrinking toward the first. */
    @SafeVarargs
    @SuppressWarnings("varargs") // the array is only copied into an immutable list
    public static <T> Gen<T> choose(T... options) {
        return choose(Arrays.asList(options));
    }

    /** One of {@code options}, shrinking toward the first. */
    public static <T> Gen<T> choose(List<T> options) {
        if (options.isEmpty()) {
            throw new IllegalArgumentException("choose needs at least one option");
        }
        List<T> copy = List.copyOf(options);
        return source -> copy.get((int) source.draw(copy.size() - 1));
    }

    /** One of {@code gens}, each as likely as the others, shrinking toward the first. */
    @SafeVarargs
    @SuppressWarnings("varargs") // the array is only copied into an immutable list
    public static <T> Gen<T> oneOf(Gen<? extends T>... gens) {
        List<Gen<? extends T>> copy = List.of(gens);
        if (copy.isEmpty()) {
            throw new IllegalArgumentException("oneOf needs at least one generator");
        }
        return source -> copy.get((int) source.draw(copy.size() - 1)).generate(source);
    }

    /** A generator with its weight, for {@link #frequency}. */
    public record Weighted<T>(int weight, Gen<? extends T> gen) {
        public Weighted {
            if (weight < 1) {
                throw new IllegalArgumentException("weight " + weight + " must be 1 or more");
            }
            Objects.requireNonNull(gen, "gen");
        }
    }

    public static <T> Weighted<T> weighted(int weight, Gen<? extends T> gen) {
        return new Weighted<>(weight, gen);
    }

    /** One generator picked by weight; shrinks toward the first. */
    @SafeVarargs
    @SuppressWarnings("varargs") // the array is only copied into an immutable list
    public static <T> Gen<T> frequency(Weighted<? extends T>... options) {
        List<Weighted<? extends T>> copy = List.of(options);
        if (copy.isEmpty()) {
            throw new IllegalArgumentException("frequency needs at least one option");
        }
        long total = copy.stream().mapToLong(Weighted::weight).sum();
        return source -> {
            long ticket = source.drawUniform(total - 1);
            for (Weighted<? extends T> option : copy) {
                if (ticket < option.weight()) {
                    return option.gen().generate(source);
                }
                ticket -= option.weight();
            }
            throw new AssertionError("ticket beyond the total weight");
        };
    }

    /**
     * Lists of {@code minSize..maxSize} elements. Each element past the minimum is preceded by a
     * "one more?" choice, so deleting a span of choices deletes elements: lists shrink by
     * dropping elements as well as by simplifying them.
     */
    public static <T> Gen<List<T>> lists(Gen<? extends T> element, int minSize, int maxSize) {
        if (minSize < 0 || maxSize < minSize) {
            throw new IllegalArgumentException("list sizes [" + minSize + ", " + maxSize
                    + "] are invalid: need 0 <= minSize <= maxSize");
        }
        return source -> {
            List<T> list = new ArrayList<>();
            while (list.size() < minSize) {
                list.add(element.generate(source));
            }
            while (list.size() < maxSize && source.draw(1) == 1) {
                list.add(element.generate(source));
            }
            return Collections.unmodifiableList(list);
        };
    }

    /** Pairs of independent examples. */
    public static <A, B> Gen<Pair<A, B>> pairs(Gen<? extends A> first, Gen<? extends B> second) {
        return zip(first, second, Pair::new);
    }

    /** Combines two generators (a record, a tuple, a configuration). */
    public static <A, B, R> Gen<R> zip(Gen<? extends A> first, Gen<? extends B> second,
                                       BiFunction<? super A, ? super B, ? extends R> combine) {
        return source -> combine.apply(first.generate(source), second.generate(source));
    }

    /** Combines three generators. */
    public static <A, B, C, R> Gen<R> zip(Gen<? extends A> first, Gen<? extends B> second, Gen<? extends C> third,
                                          Function3<? super A, ? super B, ? super C, ? extends R> combine) {
        return source -> combine.apply(first.generate(source), second.generate(source), third.generate(source));
    }

    /** A function of three arguments. */
    @FunctionalInterface
    public interface Function3<A, B, C, R> {
        R apply(A a, B b, C c);
    }

    /** Two values. */
    public record Pair<A, B>(A first, B second) {
    }
}
