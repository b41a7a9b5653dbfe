package io.spinlab.sim.engine;

/**
 * The simulator's pseudo-random generator: xoshiro256** (Blackman and Vigna) seeded through
 * SplitMix64. Its output is defined bit for bit by the seed, on every JDK and host, which is
 * what replay from a seed needs (the JDK's generators promise less across versions).
 *
 * <p>Not thread-safe: the engine owns it. {@link #split()} derives an independent stream, so
 * that turning faults on does not shift the numbers a workload sees.
 */
public final class SimRandom {
    /*
     * Implementation notes
     *
     * SplitMix64 expands the 64-bit seed into the 256-bit state (never all zero, as xoshiro
     * requires). nextInt(bound) is the JDK's rejection method on 31-bit draws, unbiased;
     * nextDouble takes the top 53 bits.
     */

    private static final long GOLDEN_GAMMA = 0x9E3779B97F4A7C15L;

    private long s0;
    private long s1;
    private long s2;
    private long s3;

    /** A generator whose whole output is determined by {@code seed}. */
    public SimRandom(long seed) {
        long x = seed;
        x += GOLDEN_GAMMA;
        s0 = mix(x);
        x += GOLDEN_GAMMA;
        s1 = mix(x);
        x += GOLDEN_GAMMA;
        s2 = mix(x);
        x += GOLDEN_GAMMA;
        s3 = mix(x);
    }

    private static long mix(long z) {
        long m = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
        m = (m ^ (m >>> 27)) * 0x94D049BB133111EBL;
        return m ^ (m >>> 31);
    }

    /** 64 uniformly distributed bits. */
    public long nextLong() {
        long result = Long.rotateLeft(s1 * 5, 7) * 9;
        long t = s1 << 17;
        s2 ^= s0;
        s3 ^= s1;
        s1 ^= s2;
        s0 ^= s3;
        s2 ^= t;
        s3 = Long.rotateLeft(s3, 45);
        return result;
    }

    /** Uniform in {@code [0, bound)}; {@code bound} must be positive. */
    public int nextInt(int bound) {
        if (bound <= 0) {
            throw new IllegalArgumentException("bound = " + bound + "; allowed 1 or more");
        }
        int r = next31();
        int m = bound - 1;
        if ((bound & m) == 0) {
            return (int) ((bound * (long) r) >> 31);
        }
        for (int u = r; u - (r = u % bound) + m < 0; u = next31()) {
            // rejected: u fell in the incomplete last block
        }
        return r;
    }

    /** Uniform in {@code [0, bound)}; {@code bound} must be positive. */
    public long nextLong(long bound) {
        if (bound <= 0) {
            throw new IllegalArgumentException("bound = " + bound + "; allowed 1 or more");
        }
        long m = bound - 1;
        long r = nextLong() >>> 1;
        if ((bound & m) == 0) {
            return r & m;
        }
        for (long u = r; u - (r = u % bound) + m < 0; u = nextLong() >>> 1) {
            // rejected
        }
        return r;
    }

    /** Uniform in {@code [0, 1)}. */
    public double nextDouble() {
        return (nextLong() >>> 11) * 0x1.0p-53;
    }

    /** True with probability {@code p} (false for p ≤ 0 without drawing, true for p ≥ 1 without drawing). */
    public boolean chance(double p) {
        if (p <= 0) {
            return false;
        }
        if (p >= 1) {
            return true;
        }
        return nextDouble() < p;
    }

    /** An independent generator seeded from this one's next output. */
    public SimRandom split() {
        return new SimRandom(nextLong());
    }

    private int next31() {
        return (int) (nextLong() >>> 33);
    }
}
