package io.spinlab.impl.buffer;

import io.spinlab.impl.event.CountdownEvent;
import io.spinlab.impl.event.ManualResetEvent;
import io.spinlab.impl.spin.SpinContext;
import io.spinlab.model.platform.Platform;
import io.spinlab.model.tuning.Knob;
import io.spinlab.model.tuning.ReservationPolicy;
import io.spinlab.model.tuning.Tuning;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.concurrent.TimeUnit;

/**
 * The EventPipe stress run of dotnet/runtime #50797, on any {@link Platform}: N writers write
 * fixed-size events as fast as they can into one {@link EventBufferManager}, one reader drains
 * it the way EventPipe's streaming thread does (a pass; if it found nothing, wait for a writer to
 * fill a buffer; then sleep the reader interval, 100 ms in EventPipe) and copies every payload
 * out, as a file writer would. Reports events attempted, written, dropped and read, efficiency
 * = read / (read + dropped), and rates per second.
 *
 * <p>Threads come from {@link Platform#startThread}, time from {@link Platform#nanoTime}, waits
 * from {@link Platform#sleep} and this package's events, so the same run works in the simulator.
 * Run it from the command line with {@link #main} (keys: {@code writers}, {@code payload},
 * {@code limit}, {@code seconds}, {@code warmup}, {@code interval-ms}, {@code tuning}).
 */
public final class BufferStress {
    /*
     * Implementation notes.
     *
     * Counting: each writer counts in its own WriterLoop (plain fields, one thread); the main
     * thread reads them after the done countdown, whose CAS orders them. The reader counts in
     * its ReaderLoop, read after the reader's own countdown. The window is from the start signal
     * to the store of `running = false`; what the reader delivers after that (the drain after
     * stop()) counts for the totals and the accounting check, not for the read rate.
     */

    private final SpinContext context;
    private final Config config;
    private volatile boolean running;
    private volatile boolean readerRunning;

    private BufferStress(SpinContext context, Config config) {
        this.context = context;
        this.config = config;
    }

    /**
     * One run.
     *
     * @param context the platform and tuning ({@code reservation} picks the strategy)
     */
    public static Result run(SpinContext context, Config config) throws InterruptedException {
        Objects.requireNonNull(context, "context");
        Objects.requireNonNull(config, "config");
        return new BufferStress(context, config).execute();
    }

    private Result execute() throws InterruptedException {
        Platform platform = context.platform();
        EventBufferManager manager = new EventBufferManager(context, config.managerConfig());
        ManualResetEvent go = new ManualResetEvent(context);
        CountdownEvent ready = new CountdownEvent(context, config.writers() + 1);
        CountdownEvent writersDone = new CountdownEvent(context, config.writers());
        CountdownEvent readerDone = new CountdownEvent(context, 1);
        WriterLoop[] writers = new WriterLoop[config.writers()];
        running = true;
        readerRunning = true;
        for (int i = 0; i < writers.length; i++) {
            writers[i] = new WriterLoop(this, manager.newWriter(), config.payloadBytes(), go, ready, writersDone);
            platform.startThread("buffer-stress-writer-" + i, writers[i]);
        }
        ReaderLoop reader = new ReaderLoop(this, manager.reader(), go, ready, readerDone);
        platform.startThread("buffer-stress-reader", reader);
        ready.await();
        long start = platform.nanoTime();
        go.set();
        platform.sleep(config.durationNanos());
        running = false;
        long end = platform.nanoTime();
        long readInWindow = reader.eventsReadOpaque();
        writersDone.await();
        manager.stop();
        readerRunning = false;
        readerDone.await();

        long attempted = 0;
        long written = 0;
        long dropped = 0;
        long oversized = 0;
        for (WriterLoop writer : writers) {
            attempted += writer.attempted;
            written += writer.written;
            dropped += writer.dropped;
            oversized += writer.oversized;
        }
        return new Result(config, context.tuning().reservation(), end - start, attempted, written, dropped,
                oversized, readInWindow, reader.eventsReadOpaque(), reader.dropsSeen, manager.diagnostics());
    }

    /** A writer thread: writes until the run ends, counting outcomes. */
    static final class WriterLoop implements Runnable {
        private final BufferStress run;
        private final EventWriter writer;
        private final byte[] payload;
        private final ManualResetEvent go;
        private final CountdownEvent ready;
        private final CountdownEvent done;
        long attempted;
        long written;
        long dropped;
        long oversized;

        WriterLoop(BufferStress run, EventWriter writer, int payloadBytes, ManualResetEvent go, CountdownEvent ready,
                CountdownEvent done) {
            this.run = run;
            this.writer = writer;
            this.payload = new byte[payloadBytes];
            this.go = go;
            this.ready = ready;
            this.done = done;
            for (int i = 0; i < payloadBytes; i++) {
                payload[i] = (byte) (writer.id() + i);
            }
        }

        @Override
        public void run() {
            try {
                ready.signal();
                go.await();
                while (run.running) {
                    attempted++;
                    switch (writer.write(payload)) {
                        case WRITTEN -> written++;
                        case DROPPED -> dropped++;
                        case DROPPED_OVERSIZED -> oversized++;
                        case STOPPED -> throw new IllegalStateException("stopped while running");
                    }
                }
                writer.close();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            } finally {
                done.signal();
            }
        }
    }

    /** The reader thread: EventPipe's streaming-thread loop, copying each payload out. */
    static final class ReaderLoop implements Runnable, EventConsumer {
        private final BufferStress run;
        private final EventReader reader;
        private final ManualResetEvent go;
        private final CountdownEvent ready;
        private final CountdownEvent done;
        private final byte[] sink = new byte[BufferManagerConfig.DEFAULT_MAX_EVENT_PAYLOAD_BYTES];
        /** Stored opaque: the main thread reads it at the end of the window and needs only a recent value. */
        long eventsRead;
        long dropsSeen;

        ReaderLoop(BufferStress run, EventReader reader, ManualResetEvent go, CountdownEvent ready,
                CountdownEvent done) {
            this.run = run;
            this.reader = reader;
            this.go = go;
            this.ready = ready;
            this.done = done;
        }

        @Override
        public void run() {
            Platform platform = run.context.platform();
            long intervalNanos = run.config.readerIntervalNanos();
            try {
                ready.signal();
                go.await();
                while (run.readerRunning) {
                    int delivered = reader.read(this);
                    if (delivered == 0) {
                        reader.awaitData(10, TimeUnit.MILLISECONDS);
                    }
                    if (intervalNanos > 0 && run.running) {
                        platform.sleep(intervalNanos);
                    }
                }
                while (!reader.isDrained()) {
                    reader.read(this);
                }
                dropsSeen = reader.dropsSeen();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            } finally {
                done.signal();
            }
        }

        @Override
        public void onEvent(EventView event) {
            event.copyPayload(sink, 0);
            EVENTS_READ.setOpaque(this, eventsRead + 1);
        }

        long eventsReadOpaque() {
            return (long) EVENTS_READ.getOpaque(this);
        }

        // VarHandle mechanics
        private static final VarHandle EVENTS_READ;

        static {
            try {
                EVENTS_READ = MethodHandles.lookup().findVarHandle(ReaderLoop.class, "eventsRead", long.class);
            } catch (ReflectiveOperationException e) {
                throw new ExceptionInInitializerError(e);
            }
        }
    }

    /**
     * What to run.
     *
     * @param writers             writer threads
     * @param payloadBytes        bytes per event payload (200 in the published run)
     * @param limitBytes          the manager's limit (256 MB in the published run)
     * @param durationNanos       how long the writers write
     * @param readerIntervalNanos the reader's sleep between passes (EventPipe: 100 ms; 0: none)
     */
    public record Config(int writers, int payloadBytes, long limitBytes, long durationNanos,
            long readerIntervalNanos) {
        public Config {
            if (writers < 1) {
                throw new IllegalArgumentException("writers = " + writers + " is out of range; allowed 1 or more");
            }
            if (payloadBytes < 0) {
                throw new IllegalArgumentException("payloadBytes = " + payloadBytes
                        + " is out of range; allowed 0 or more");
            }
            if (durationNanos <= 0) {
                throw new IllegalArgumentException("durationNanos = " + durationNanos
                        + " is out of range; allowed 1 or more");
            }
            if (readerIntervalNanos < 0) {
                throw new IllegalArgumentException("readerIntervalNanos = " + readerIntervalNanos
                        + " is out of range; allowed 0 or more");
            }
            // Validates the limit against EventPipe's buffer sizes.
            BufferManagerConfig.ofLimit(limitBytes);
        }

        BufferManagerConfig managerConfig() {
            return BufferManagerConfig.ofLimit(limitBytes);
        }
    }

    /**
     * What a run measured.
     *
     * @param elapsedNanos   the writing window
     * @param attempted      writes attempted in the window
     * @param readInWindow   events the reader had delivered when the window closed
     * @param read           events delivered in all, after the final drain (= written)
     * @param dropsSeen      drops the reader saw as sequence gaps (= dropped + oversized)
     */
    public record Result(Config config, ReservationPolicy reservation, long elapsedNanos, long attempted,
            long written, long dropped, long oversized, long readInWindow, long read, long dropsSeen,
            BufferManagerDiagnostics diagnostics) {

        /** read / (read + dropped), over the whole run. */
        public double efficiency() {
            long denominator = read + dropped + oversized;
            return denominator == 0 ? 1.0 : (double) read / denominator;
        }

        public double attemptedPerSecond() {
            return attempted * 1e9 / elapsedNanos;
        }

        public double readPerSecond() {
            return readInWindow * 1e9 / elapsedNanos;
        }

        /** Wall time per attempted write, per writer thread. */
        public double nanosPerAttemptPerWriter() {
            return (double) elapsedNanos * config.writers() / attempted;
        }

        /** Every written event read once, every drop seen as a gap, the limit never passed. */
        public boolean consistent() {
            return read == written && dropsSeen == dropped + oversized && attempted == written + dropped + oversized
                    && diagnostics.highWaterBytes() <= config.limitBytes()
                    && diagnostics.reservationFailures() == dropped;
        }

        @Override
        public String toString() {
            return String.format(Locale.ROOT,
                    "%-10s writers=%d attempted=%,d (%,.0f/s) read=%,d in window (%,.0f/s) dropped=%,d "
                            + "efficiency=%.3f lock=%,d drop-path-lock=%,d high-water=%,d %s",
                    Knob.nameOf(reservation), config.writers(), attempted, attemptedPerSecond(), readInWindow,
                    readPerSecond(), dropped, efficiency(), diagnostics.lockAcquisitions(),
                    diagnostics.dropPathLockAcquisitions(), diagnostics.highWaterBytes(),
                    consistent() ? "consistent" : "INCONSISTENT");
        }
    }

    /**
     * Runs the stress for both reservation policies, one writer count after another, and prints
     * the results and the lockless/under-lock ratios. Arguments are {@code key=value}:
     * {@code writers=2,4 payload=200 limit-mb=256 seconds=5 warmup=1 interval-ms=100}.
     */
    public static void main(String[] args) throws InterruptedException {
        int[] writerCounts = {2, 4};
        int payload = 200;
        long limitMb = 256;
        double seconds = 5;
        double warmupSeconds = 1;
        long intervalMs = 100;
        for (String arg : args) {
            int eq = arg.indexOf('=');
            if (eq < 0) {
                throw new IllegalArgumentException("expected key=value, got '" + arg + "'");
            }
            String key = arg.substring(0, eq);
            String value = arg.substring(eq + 1);
            switch (key) {
                case "writers" -> writerCounts = parseInts(value);
                case "payload" -> payload = Integer.parseInt(value);
                case "limit-mb" -> limitMb = Long.parseLong(value);
                case "seconds" -> seconds = Double.parseDouble(value);
                case "warmup" -> warmupSeconds = Double.parseDouble(value);
                case "interval-ms" -> intervalMs = Long.parseLong(value);
                default -> throw new IllegalArgumentException("unknown key '" + key
                        + "'; valid: writers, payload, limit-mb, seconds, warmup, interval-ms");
            }
        }
        SpinContext hardware = SpinContext.hardware();
        for (int writers : writerCounts) {
            List<Result> results = new ArrayList<>();
            for (ReservationPolicy policy : List.of(ReservationPolicy.LOCKLESS, ReservationPolicy.UNDER_LOCK)) {
                SpinContext context = hardware.withTuning(Tuning.current().with(Knob.RESERVATION, policy));
                Config config = new Config(writers, payload, limitMb << 20, (long) (seconds * 1e9),
                        intervalMs * 1_000_000L);
                if (warmupSeconds > 0) {
                    run(context, new Config(writers, payload, limitMb << 20, (long) (warmupSeconds * 1e9),
                            intervalMs * 1_000_000L));
                }
                Result result = run(context, config);
                results.add(result);
                System.out.println(result);
            }
            Result lockless = results.get(0);
            Result underLock = results.get(1);
            System.out.printf(Locale.ROOT, "writers=%d lockless/under-lock: attempted %.2fx, read %.2fx%n", writers,
                    lockless.attemptedPerSecond() / underLock.attemptedPerSecond(),
                    lockless.readPerSecond() / underLock.readPerSecond());
        }
    }

    private static int[] parseInts(String csv) {
        String[] parts = csv.split(",");
        int[] values = new int[parts.length];
        for (int i = 0; i < parts.length; i++) {
            values[i] = Integer.parseInt(parts[i].strip());
        }
        return values;
    }
}
