package io.spinlab.sim.workload;

import io.spinlab.impl.spin.SpinContext;
import io.spinlab.model.platform.Platform;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * N threads each make S successful read-then-CAS increments of one shared word, which also
 * carries the index of the thread that wrote it last, so that each thread sees when the line
 * came to it from another: the loop of {@code ContendedCounter}, instrumented. Score: successes
 * per ms. Metrics: {@code failures} (CASes that lost) and {@code ownerChanges} (reads that found
 * another thread's write), both over all threads.
 */
public final class TaggedCasLoop implements Workload {

    /** Word values are count × TAGS + the writer's index. */
    private static final int TAGS = 64;

    private final int threads;
    private final int successesPerThread;

    public TaggedCasLoop(int threads, int successesPerThread) {
        if (threads < 1 || threads > TAGS || successesPerThread < 1) {
            throw new IllegalArgumentException("threads = " + threads + ", successes = " + successesPerThread);
        }
        this.threads = threads;
        this.successesPerThread = successesPerThread;
    }

    @Override
    public String name() {
        return "tagged-cas-loop";
    }

    @Override
    public String parameters() {
        return "threads=" + threads + ",successes=" + successesPerThread;
    }

    @Override
    public WorkloadResult run(SpinContext context) throws InterruptedException {
        Platform platform = context.platform();
        Word word = new Word();
        long[] failures = new long[threads];
        long[] ownerChanges = new long[threads];
        Timing timing = new Timing(threads);
        SpinGate start = new SpinGate();
        WorkerGroup group = new WorkerGroup(context, threads);
        for (int t = 0; t < threads; t++) {
            int index = t;
            group.start("cas-" + t, () -> {
                start.await(platform);
                timing.begin(index, platform);
                long failed = 0;
                long changes = 0;
                for (int done = 0; done < successesPerThread; ) {
                    long seen = word.value;
                    if (seen % TAGS != index && seen != 0) {
                        changes++;
                    }
                    if (Word.VALUE.compareAndSet(word, seen, (seen / TAGS + 1) * TAGS + index)) {
                        done++;
                    } else {
                        failed++;
                    }
                }
                timing.end(index, platform);
                failures[index] = failed;
                ownerChanges[index] = changes;
            });
        }
        start.open();
        group.join(60, TimeUnit.SECONDS);
        long successes = (long) threads * successesPerThread;
        if (word.value / TAGS != successes) {
            throw new IllegalStateException("count = " + word.value / TAGS + ", expected " + successes);
        }
        long failed = 0;
        long changes = 0;
        for (int t = 0; t < threads; t++) {
            failed += failures[t];
            changes += ownerChanges[t];
        }
        return new WorkloadResult(name(), parameters(), platform.toString(), successes, timing.elapsed(),
                Map.of("failures", (double) failed, "ownerChanges", (double) changes));
    }

    /** One volatile long. */
    static final class Word {
        volatile long value;

        // VarHandle mechanics
        static final VarHandle VALUE;

        static {
            try {
                VALUE = MethodHandles.lookup().findVarHandle(Word.class, "value", long.class);
            } catch (ReflectiveOperationException e) {
                throw new ExceptionInInitializerError(e);
            }
        }
    }
}
