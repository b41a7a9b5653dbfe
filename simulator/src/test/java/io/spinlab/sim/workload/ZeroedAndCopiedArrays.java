package io.spinlab.sim.workload;

import io.spinlab.impl.spin.SpinContext;
import io.spinlab.model.platform.Platform;

/**
 * A fixture of the instruction clock's stores: between two clock reads one thread allocates a
 * {@code byte[n]}, an {@code Object[n]} and a {@code long[n]}, and copies the {@code long[]} into
 * a second one with {@code System.arraycopy}. The same bytecode runs for every {@code n}, so two
 * lengths differ only by the bytes zeroed and copied: n + 8n + 8n + 8n (the copy's target) + 8n
 * (the copy) = {@link #BYTES_PER_ELEMENT} × n.
 */
public final class ZeroedAndCopiedArrays implements Workload {
    /** Bytes charged per unit of the length: 1 (byte) + 8 (reference) + 8 + 8 (two longs) + 8 (the copy). */
    public static final int BYTES_PER_ELEMENT = 33;

    private final int length;

    /** @param length elements of each array */
    public ZeroedAndCopiedArrays(int length) {
        this.length = length;
    }

    @Override
    public String name() {
        return "zeroed-and-copied-arrays";
    }

    @Override
    public String parameters() {
        return "length=" + length;
    }

    @Override
    public WorkloadResult run(SpinContext context) {
        Platform platform = context.platform();
        long begin = platform.nanoTime();
        byte[] bytes = new byte[length];
        Object[] references = new Object[length];
        long[] source = new long[length];
        long[] target = new long[length];
        System.arraycopy(source, 0, target, 0, length);
        long end = platform.nanoTime();
        return new WorkloadResult(name(), parameters(), platform.toString(),
                bytes.length + references.length + target.length, end - begin);
    }
}
