package io.spinlab.impl.architecture;

import io.spinlab.impl.platform.HardwarePlatform;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.InputStream;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.file.Path;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Every fenced store of impl's production code, each with why it is fenced (see
 * impl/MEMORY-ORDERING.md for the .NET statement and commit behind each). A new volatile write, or
 * one turned into a release store, fails here until it is classified: a fence .NET does not have
 * costs a drain of the store buffer in the simulator and on x86. Constructors are listed too, so
 * that a fenced store in the constructor of an object made on a hot path (a queue segment, a
 * stack node, a wait-queue entry, an event buffer) cannot come in unseen.
 */
class FencedStoreTest {

    private static final String DOTNET_INTERLOCKED = ".NET fences it too (Interlocked)";
    private static final String DEKKER = "a store→load order the algorithm needs";
    private static final String COLD = "cold: once per object or thread lifetime, or an error path";
    private static final String CONSTRUCTOR = "once per primitive, in its constructor, before it is shared";

    private static final Map<String, String> EXPECTED = new TreeMap<>(Map.ofEntries(
            // .NET WorkStealingQueue.LocalPop / TrySteal: Interlocked.Exchange of the index before reading the other
            Map.entry("collections.WorkStealingQueue.pop tail", DOTNET_INTERLOCKED),
            Map.entry("collections.WorkStealingQueue.trySteal head", DOTNET_INTERLOCKED),
            // ConcurrentQueueSegment.TryPeek: the flag, then Interlocked.MemoryBarrier, then the head
            Map.entry("collections.ConcurrentQueue$Segment.tryPeek preservedForObservation", DOTNET_INTERLOCKED),
            Map.entry("collections.ConcurrentQueue.iterator preservedForObservation", DEKKER),
            // SpinLock.Exit(true): Interlocked.Exchange of the owner
            Map.entry("lock.SpinLock.exit ownerThread", DOTNET_INTERLOCKED),
            // the signal's flag, then unpark; .NET: an OS event's Set
            Map.entry("lock.WaitQueue.signal status", DOTNET_INTERLOCKED),
            // Task.FinishStageTwo: Interlocked.Exchange of the state flags, then re-reads the event
            Map.entry("pool.Task.finish state", DOTNET_INTERLOCKED),
            // WorkStealingQueueList.Add/Remove: Interlocked.CompareExchange of the array
            Map.entry("pool.ThreadPool.bind workers", DOTNET_INTERLOCKED),
            Map.entry("pool.ThreadPool.unbind workers", DOTNET_INTERLOCKED),
            // the writer's odd epoch before reading its buffer and the state (.NET: the thread lock's exchange)
            Map.entry("buffer.EventWriter.write setVolatile", DEKKER),
            // stop() reads the writers without the lock after its state CAS
            Map.entry("buffer.EventBufferManager.newWriter writers", DEKKER),
            // the gate thread stores itself, then reads whether the pool drained; wake() the other way
            Map.entry("pool.StarvationGate.run thread", DEKKER),
            Map.entry("pool.StarvationGate.ensureRunning thread", COLD),
            Map.entry("pool.PoolWorker.run thread", COLD),
            Map.entry("pool.ThreadPool.retireSteals retiredSteals", COLD),
            Map.entry("buffer.EventWriter.close closed", COLD),
            Map.entry("event.Barrier.finishPhase failure", COLD),
            // the scanning worker's DETERMINING before its scan; .NET's plain store leaves a window (see the class)
            Map.entry("pool.CascadingThreadRequests.firstItem value", DEKKER),
            Map.entry("pool.StarvationGate.ensureRunning value", COLD),
            Map.entry("pool.StarvationGate.run value", COLD),
            // constructors: .NET initializes the same fields with plain stores; here one fence per object
            Map.entry("buffer.EventBufferManager.<init> writers", CONSTRUCTOR),
            Map.entry("collections.ConcurrentQueue.<init> head", CONSTRUCTOR),
            Map.entry("collections.ConcurrentQueue.<init> tail", CONSTRUCTOR),
            Map.entry("collections.QueueSegmentQueue.<init> dequeueSegment", CONSTRUCTOR),
            Map.entry("collections.QueueSegmentQueue.<init> enqueueSegment", CONSTRUCTOR),
            Map.entry("collections.WorkStealingQueue.<init> array", CONSTRUCTOR),
            Map.entry("collections.WorkStealingQueue.<init> mask", CONSTRUCTOR),
            Map.entry("event.Barrier.<init> state", CONSTRUCTOR),
            Map.entry("event.CountdownEvent.<init> count", CONSTRUCTOR),
            Map.entry("event.CountdownEvent.<init> initialCount", CONSTRUCTOR),
            Map.entry("event.ManualResetEvent.<init> state", CONSTRUCTOR),
            Map.entry("lock.SpinLock.<init> owner", CONSTRUCTOR),
            Map.entry("pool.LifoSemaphore$PaddedCounts.<init> value", CONSTRUCTOR),
            Map.entry("pool.PaddedLong.<init> value", CONSTRUCTOR),
            Map.entry("pool.ThreadPool.<init> workers", CONSTRUCTOR),
            Map.entry("semaphore.LockFreeProtocol.<init> state", CONSTRUCTOR),
            Map.entry("semaphore.MonitorProtocol.<init> count", CONSTRUCTOR),
            Map.entry("spin.CalibratedPauseNormalizer.<init> calibration", CONSTRUCTOR)));

    @Test
    void everyFencedStoreShouldBeOneThatIsMeantToBe() throws Exception {
        Path classes = Path.of(HardwarePlatform.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        Set<String> found = FencedStoreScanner.scanDirectory(classes, getClass().getClassLoader());

        assertThat(found).as("fenced stores of impl (classify a new one in FencedStoreTest and MEMORY-ORDERING.md)")
                .containsExactlyInAnyOrderElementsOf(EXPECTED.keySet());
    }

    @Test
    void shouldFindVolatileWritesSetVolatileAndConstructorsButNotReleaseStoresOrPlainFields() throws IOException {
        Set<String> found = FencedStoreScanner.scan(bytesOf(Breaker.class), getClass().getClassLoader());

        assertThat(found).containsExactlyInAnyOrder(
                "architecture.FencedStoreTest$Breaker.<init> own",
                "architecture.FencedStoreTest$Breaker.store inherited",
                "architecture.FencedStoreTest$Breaker.store own",
                "architecture.FencedStoreTest$Breaker.store setVolatile");
    }

    private static byte[] bytesOf(Class<?> c) throws IOException {
        String binaryName = c.getName();
        try (InputStream in = c.getResourceAsStream(binaryName.substring(binaryName.lastIndexOf('.') + 1) + ".class")) {
            return in.readAllBytes();
        }
    }

    /** Holds a volatile field for {@link Breaker} to inherit. */
    static class Base {
        volatile int inherited;
    }

    /** Planted fenced stores (and stores that are not fenced). */
    static final class Breaker extends Base {
        private static final VarHandle OWN;

        static {
            try {
                OWN = MethodHandles.lookup().findVarHandle(Breaker.class, "own", int.class);
            } catch (ReflectiveOperationException e) {
                throw new ExceptionInInitializerError(e);
            }
        }

        volatile int own;
        int plain;

        Breaker() {
            own = 1;
        }

        void store() {
            inherited = 1;
            own = 2;
            OWN.setVolatile(this, 3);
            plain = 4;
        }

        void release() {
            OWN.setRelease(this, 5);
            plain = 6;
        }
    }
}
