package io.spinlab.impl.architecture;

import io.spinlab.impl.platform.HardwarePlatform;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Enforces DESIGN.md's seam rule on the compiled production classes of impl: only
 * HardwarePlatform touches Thread.onSpinWait/yield/sleep, LockSupport, the system clock; no
 * synchronized, Object.wait/notify, java.util.concurrent.locks, Atomic*, Unsafe or
 * ThreadLocalRandom anywhere else.
 */
class SeamRuleTest {

    @Test
    void productionClassesShouldGoThroughThePlatform() throws Exception {
        Path classes = Path.of(HardwarePlatform.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        assertThat(classes.resolve("io/spinlab/impl/platform/HardwarePlatform.class")).exists();
        assertThat(SeamRuleScanner.scanDirectory(classes)).isEmpty();
    }

    @Test
    void shouldAllowHardwarePlatformItself() throws IOException {
        assertThat(SeamRuleScanner.scan(bytesOf(HardwarePlatform.class))).isEmpty();
    }

    @Test
    void shouldCatchEveryKindOfBreach() throws IOException {
        List<String> violations = SeamRuleScanner.scan(bytesOf(RuleBreaker.class));
        assertThat(violations).anyMatch(v -> v.contains("Thread.onSpinWait"))
                .anyMatch(v -> v.contains("Thread.yield"))
                .anyMatch(v -> v.contains("Thread.sleep"))
                .anyMatch(v -> v.contains("System.nanoTime"))
                .anyMatch(v -> v.contains("LockSupport"))
                .anyMatch(v -> v.contains("synchronized block"))
                .anyMatch(v -> v.contains("synchronized method"))
                .anyMatch(v -> v.contains("Object.notifyAll"))
                .anyMatch(v -> v.contains("AtomicInteger"))
                .anyMatch(v -> v.contains("ReentrantLock"))
                .anyMatch(v -> v.contains("ThreadLocalRandom"));
    }

    private static byte[] bytesOf(Class<?> type) throws IOException {
        String resource = "/" + type.getName().replace('.', '/') + ".class";
        try (InputStream in = type.getResourceAsStream(resource)) {
            assertThat(in).as(resource).isNotNull();
            return in.readAllBytes();
        }
    }

    /** Everything the rule forbids, once each; never run. */
    @SuppressWarnings("unused")
    static final class RuleBreaker {
        private final Object monitor = new Object();
        private final AtomicInteger counter = new AtomicInteger();

        void spin() throws InterruptedException {
            Thread.onSpinWait();
            Thread.yield();
            Thread.sleep(1);
            long t = System.nanoTime();
            LockSupport.park(this);
            synchronized (monitor) {
                monitor.notifyAll();
            }
            new java.util.concurrent.locks.ReentrantLock().lock();
            int r = java.util.concurrent.ThreadLocalRandom.current().nextInt(t > 0 ? 2 : 3);
            counter.addAndGet(r);
        }

        synchronized void locked() {
        }
    }
}
