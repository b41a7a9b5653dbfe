package io.spinlab.sim.workload;

import io.spinlab.impl.buffer.BufferManagerConfig;
import io.spinlab.impl.buffer.BufferManagerDiagnostics;
import io.spinlab.impl.buffer.EventBufferManager;
import io.spinlab.impl.buffer.EventConsumer;
import io.spinlab.impl.buffer.EventReader;
import io.spinlab.impl.buffer.EventView;
import io.spinlab.impl.buffer.EventWriter;
import io.spinlab.impl.buffer.WriteOutcome;
import io.spinlab.impl.event.CountdownEvent;
import io.spinlab.impl.spin.SpinContext;
import io.spinlab.model.platform.Platform;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.TimeUnit;

/**
 * The EventPipe stress run of dotnet/runtime #50797 as a windowed workload: N writers write
 * fixed-size events into one {@link EventBufferManager} as fast as they can, one reader drains it
 * the way EventPipe's streaming thread does (a pass; if it found nothing, wait up to 1 ms for a
 * writer to fill a buffer; then sleep {@code reader-interval}) and copies every payload out. The
 * {@code reservation} knob picks the reservation under the manager's lock or the lockless one.
 *
 * <p>Score ({@code score}): events read per ms ({@code read}, the default) or write attempts per
 * ms ({@code attempted}), both counted inside the window; the run is the same either way (the
 * same event-log digest), only what the score counts differs ({@link ScoreChoice}). Metrics: {@code threads} and {@code writers} (the same),
 * {@code attempted}, {@code written}, {@code dropped}, {@code read} (inside the window),
 * {@code efficiency} = read / (read + dropped) inside the window, the manager's
 * {@code lockAcquisitions} and {@code dropPathLockAcquisitions}, and over the whole run
 * {@code writtenTotal}, {@code droppedTotal}, {@code readTotal} and {@code gapsSeen} (the drops
 * the reader saw as sequence gaps): every written event read once and every drop seen as a gap
 * means readTotal = writtenTotal and gapsSeen = droppedTotal; a run where either differs fails.
 *
 * <p>{@code stream}: where the reader's copies go. {@code none} (the default): the reader copies
 * each payload out in its own process and counts it read. A size in bytes: the published setup,
 * in which the runtime's streaming thread serializes events into blocks of up to 100 KB and
 * writes each block to a pipe or local socket with that much kernel buffer (blocking while it is
 * full), and another process (a second thread here, {@code stream-reader}) copies the stream to
 * a file 81,920 bytes at a time; an event counts as read when that process has received it. The
 * buffer is the operating system's: 16 KB for the named pipe of .NET's diagnostics transport on
 * Windows, 8 KB for a macOS local stream socket (see the implementation notes).
 *
 * <p>Each write attempt ticks once before it (the event's formatting, see {@link Work}) and the
 * reader ticks once per event it copies (the stream reader once per read). The published run
 * used 32 writers, 200-byte events, a 256 MB limit and EventPipe's 100 ms reader interval for
 * 60 s; simulated windows last milliseconds, so experiments scale the limit and the interval
 * down (saturation is what matters: writers that fail to get a buffer).
 */
public final class EventPipeStress extends WindowedWorkload implements ScoreChoice {
    /*
     * Implementation notes
     *
     * Ending: writers leave their loop when the run stops, close their EventWriter and count
     * down `writersDone`; the reader leaves its loop, waits for them, stops the manager and
     * drains it, so that the totals can be checked (read = written, gaps = drops).
     *
     * Counting: in-window tallies are plain fields of one writer each (Tally), read by the
     * controller after the join, whose countdown orders them; the reader counts its in-window
     * events in a plain field of its own. The score is taken from them after the run, not from
     * MeasuredRun's counters, so that the run does the same whatever `score` chooses (one
     * simulation scores both; ScoreChoice). Until 2026-12-05 the chosen count also went
     * through MeasuredRun's padded counters: two more shared-memory accesses per write attempt
     * under score=attempted, which made the two choices different runs.
     *
     * The stream (what was read, and where; dotnet/runtime and dotnet/diagnostics read through
     * the search tools on 2026-12-06, not at the PR's own commit, which the index lacks):
     * - the streaming thread (src/native/eventpipe/ep-session.c, streaming_thread) writes all
     *   buffers, then sleeps 100 ms after every pass; ep_buffer_manager_write_all_buffers_to_file
     *   adds events to the file's event block (ep-file.c: 100 * 1024 bytes), which is written to
     *   the stream when full and at the end of each pass (ep_file_flush). One block goes out in
     *   a few writes (tags, size, header fields, then the block data in one write); only the
     *   data is modelled. An event takes its record in spinlab's buffer (a 16-byte header and
     *   the payload) in the block; the nettrace format compresses its header to about as much;
     * - the transport: on Windows a byte-mode named pipe created with 16 * 1024 bytes of in and
     *   out buffer (src/native/eventpipe/ds-ipc-pal-namedpipe.c), written with WriteFile and
     *   waited for; on macOS and Linux a blocking Unix domain socket with no buffer size set
     *   (ds-ipc-pal-socket.c), so the kernel default: on macOS PIPSIZ, 8192 bytes for sender and
     *   receiver together (xnu bsd/kern/uipc_usrreq.c, apple-oss-distributions/xnu @ 1031c584);
     * - the reader (dotnet/diagnostics src/tests/EventPipeStress/Orchestrator/Program.cs, the
     *   default "Stream" reader type): a separate process that copies the session's stream to a
     *   file with Stream.CopyTo (81,920-byte buffer) and counts the events in the file after the
     *   run. Some versions of that program also raise the writing process to the RealTime
     *   priority class and restrict its affinity (not on macOS); which version the PR's runs
     *   used is not known, and priority classes are not modelled.
     */

    public static final String NAME = "eventpipe-stress";

    /** What the score counts. */
    public enum Score {
        // Declaration order is the index into the run's counts (see run).
        /** Events the reader delivered inside the window. */
        READ,
        /** Write attempts that began inside the window. */
        ATTEMPTED;

        /** The parameter text. */
        public String text() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    /** Largest payload: EventPipe's largest event. */
    public static final int MAX_PAYLOAD = BufferManagerConfig.DEFAULT_MAX_EVENT_PAYLOAD_BYTES;

    private static final long KB = 1024;
    private static final long MAX_STREAM_BYTES = 64 * KB * KB;

    static final WorkloadType.Parameter PAYLOAD = new WorkloadType.Parameter("payload", "200",
            "bytes per event payload, 0..65536");
    static final WorkloadType.Parameter LIMIT = new WorkloadType.Parameter("limit", "256mb",
            "the manager's global buffer limit: bytes, or a number with kb, mb or gb; at least 1mb");
    static final WorkloadType.Parameter READER_INTERVAL = new WorkloadType.Parameter("reader-interval", "1ms",
            "the reader's sleep between passes (EventPipe: 100ms); 0 for back to back");
    static final WorkloadType.Parameter SCORE = new WorkloadType.Parameter("score", "read",
            "what the score counts: read (events read) or attempted (write attempts)");
    static final WorkloadType.Parameter STREAM = new WorkloadType.Parameter("stream", "none",
            "none (the reader copies events in-process), or the kernel buffer of the pipe or socket to a "
                    + "reading process, e.g. 16kb (Windows' named pipe) or 8kb (a macOS local socket)");

    /** EventPipe's event block: serialized events go to the stream in blocks of up to this many bytes. */
    static final int EVENT_BLOCK_BYTES = 100 * 1024;
    /** Bytes of an event's record in the buffer (and in a block) besides its payload. */
    static final int EVENT_HEADER_BYTES = 16;
    /** The reading process's buffer: Stream.CopyTo's default. */
    static final int STREAM_READ_BYTES = 81_920;

    static final WorkloadType TYPE = new WorkloadType(NAME,
            "N writers write events into one buffer manager as fast as they can, one reader drains it; "
                    + "events read/ms (or attempts/ms)",
            withThreadsDefault(parameterList(PAYLOAD, LIMIT, READER_INTERVAL, SCORE, STREAM)),
            p -> new EventPipeStress(p.threads("threads"), p.whole("payload", 0, MAX_PAYLOAD),
                    parseBytes(p.text("limit")), p.nanos("reader-interval"),
                    p.choice("score", List.of("read", "attempted")).equals("read") ? Score.READ : Score.ATTEMPTED,
                    parseStream(p.text("stream")), p.window()));

    private final int payloadBytes;
    private final long limitBytes;
    private final long readerIntervalNanos;
    private final Score score;
    /** The stream's kernel buffer, bytes; 0 for no stream. */
    private final int streamBytes;

    /**
     * @param writers             writing threads
     * @param payloadBytes        bytes per event, 0..{@value #MAX_PAYLOAD}
     * @param limitBytes          the manager's limit, at least its largest buffer (1 MB)
     * @param readerIntervalNanos the reader's sleep between passes, 0 for none
     * @param score               what the score counts
     * @param streamBytes         the kernel buffer of the stream to a reading process, bytes; 0 for none
     * @param window              warm-up and measured window
     */
    public EventPipeStress(ThreadCount writers, int payloadBytes, long limitBytes, long readerIntervalNanos,
            Score score, int streamBytes, Window window) {
        super(writers, window);
        if (payloadBytes < 0 || payloadBytes > MAX_PAYLOAD) {
            throw new IllegalArgumentException(NAME + ": payload = " + payloadBytes + " is not valid; valid: 0.."
                    + MAX_PAYLOAD);
        }
        try {
            BufferManagerConfig.ofLimit(limitBytes);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(NAME + ": limit = " + limitBytes + " bytes is not valid: "
                    + e.getMessage(), e);
        }
        this.payloadBytes = payloadBytes;
        this.limitBytes = limitBytes;
        this.readerIntervalNanos = Durations.check("reader-interval", readerIntervalNanos);
        this.score = Objects.requireNonNull(score, "score");
        if (streamBytes < 0 || streamBytes > MAX_STREAM_BYTES) {
            throw new IllegalArgumentException(NAME + ": stream = " + streamBytes + " bytes is not valid; valid: 0 "
                    + "(none) or a kernel buffer of 1 byte to 64mb");
        }
        this.streamBytes = streamBytes;
    }

    /** Parses {@code none} (0) or a byte count such as {@code 16kb}. */
    static int parseStream(String text) {
        String t = text.strip().toLowerCase(Locale.ROOT);
        if (t.equals("none")) {
            return 0;
        }
        long bytes;
        try {
            bytes = parseBytes(t);
        } catch (IllegalArgumentException e) {
            bytes = -1;
        }
        if (bytes < 1 || bytes > MAX_STREAM_BYTES) {
            throw new IllegalArgumentException(NAME + ": stream = '" + text + "' is not valid; valid: none, or a "
                    + "kernel buffer of 1 byte to 64mb (e.g. 16kb, 8kb)");
        }
        return (int) bytes;
    }

    private static List<WorkloadType.Parameter> withThreadsDefault(List<WorkloadType.Parameter> parameters) {
        return parameters.stream().map(p -> p.key().equals("threads")
                ? new WorkloadType.Parameter("threads", "32", "writer threads: an absolute count (the published "
                        + "run: 32) or a multiple of the processor count") : p).toList();
    }

    /** Parses {@code 16mb}, {@code 512kb}, {@code 1gb} or a plain byte count. */
    static long parseBytes(String text) {
        String t = text.strip().toLowerCase(Locale.ROOT);
        long scale = 1;
        if (t.endsWith("kb")) {
            scale = KB;
        } else if (t.endsWith("mb")) {
            scale = KB * KB;
        } else if (t.endsWith("gb")) {
            scale = KB * KB * KB;
        }
        String number = scale == 1 ? t : t.substring(0, t.length() - 2);
        try {
            long value = Long.parseLong(number);
            if (value > 0 && value <= Long.MAX_VALUE / scale) {
                return value * scale;
            }
        } catch (NumberFormatException e) {
            // falls through
        }
        throw new IllegalArgumentException(NAME + ": limit = '" + text + "' is not valid; valid: a positive byte "
                + "count, or a number with kb, mb or gb (e.g. 16mb, 256mb)");
    }

    private static String formatBytes(long bytes) {
        if (bytes % (KB * KB * KB) == 0) {
            return bytes / (KB * KB * KB) + "gb";
        }
        if (bytes % (KB * KB) == 0) {
            return bytes / (KB * KB) + "mb";
        }
        if (bytes % KB == 0) {
            return bytes / KB + "kb";
        }
        return Long.toString(bytes);
    }

    @Override
    public String name() {
        return NAME;
    }

    public Score score() {
        return score;
    }

    @Override
    protected Map<String, String> settings() {
        Map<String, String> s = new LinkedHashMap<>();
        s.put("payload", Integer.toString(payloadBytes));
        s.put("limit", formatBytes(limitBytes));
        s.put("reader-interval", Durations.format(readerIntervalNanos));
        s.put("score", score.text());
        s.put("stream", streamBytes == 0 ? "none" : formatBytes(streamBytes));
        return s;
    }

    @Override
    public WorkloadResult run(SpinContext context) throws InterruptedException {
        Platform platform = context.platform();
        int writers = threads().resolve(context.processorCount());
        EventBufferManager manager = new EventBufferManager(context, BufferManagerConfig.ofLimit(limitBytes));
        CountdownEvent writersDone = new CountdownEvent(context, writers);
        MeasuredRun run = new MeasuredRun(context, window(), writers + (streamBytes == 0 ? 1 : 2));
        run.metric("threads", writers);
        Tally[] tallies = new Tally[writers];
        EventWriter[] eventWriters = new EventWriter[writers];
        for (int w = 0; w < writers; w++) {
            // Every writer registers before any thread starts: registering takes the manager's
            // lock, which running writers may keep busy (with under-lock, for as long as they run).
            eventWriters[w] = manager.newWriter();
            tallies[w] = new Tally();
        }
        for (int w = 0; w < writers; w++) {
            EventWriter writer = eventWriters[w];
            Tally tally = tallies[w];
            byte[] payload = new byte[payloadBytes];
            run.start("writer-" + w, slot -> write(run, writer, payload, tally, writersDone));
        }
        StreamPipe stream = streamBytes == 0 ? null : new StreamPipe(platform, streamBytes);
        Drain drain = new Drain(run, manager.reader(), stream, EVENT_HEADER_BYTES + payloadBytes);
        run.start("reader", slot -> drain.run(platform, readerIntervalNanos, writersDone, manager));
        StreamReader streamReader = stream == null ? null : new StreamReader(run, stream, EVENT_HEADER_BYTES + payloadBytes);
        if (streamReader != null) {
            run.start("stream-reader", slot -> streamReader.run());
        }
        WorkloadResult measured = run.measure(this, () -> { });
        return withMetrics(measured, writers, tallies, drain, streamReader, manager.diagnostics());
    }

    private static void write(MeasuredRun run, EventWriter writer, byte[] payload, Tally tally,
            CountdownEvent writersDone) {
        try {
            while (run.running()) {
                long now = run.tick();
                WriteOutcome outcome = writer.write(payload);
                tally.record(outcome, run.inWindow(now));
            }
            writer.close();
        } finally {
            writersDone.signal();
        }
    }

    private WorkloadResult withMetrics(WorkloadResult measured, int writers, Tally[] tallies, Drain drain,
            StreamReader streamReader, BufferManagerDiagnostics diagnostics) {
        long attempted = 0;
        long written = 0;
        long dropped = 0;
        long writtenTotal = 0;
        long droppedTotal = 0;
        for (Tally t : tallies) {
            attempted += t.attempted;
            written += t.written;
            dropped += t.dropped;
            writtenTotal += t.writtenTotal;
            droppedTotal += t.droppedTotal;
        }
        if (drain.readTotal != writtenTotal || drain.reader.dropsSeen() != droppedTotal) {
            throw new IllegalStateException(NAME + ": events lost or duplicated: written " + writtenTotal + ", read "
                    + drain.readTotal + "; dropped " + droppedTotal + ", gaps seen " + drain.reader.dropsSeen());
        }
        if (streamReader != null && streamReader.eventsTotal != drain.readTotal) {
            throw new IllegalStateException(NAME + ": the stream lost events: the streaming thread sent "
                    + drain.readTotal + ", the reading process received " + streamReader.eventsTotal);
        }
        long readInWindow = streamReader == null ? drain.readInWindow : streamReader.eventsInWindow;
        Map<String, Double> metrics = new LinkedHashMap<>(measured.metrics());
        metrics.put("writers", (double) writers);
        metrics.put("attempted", (double) attempted);
        metrics.put("written", (double) written);
        metrics.put("dropped", (double) dropped);
        metrics.put("read", (double) readInWindow);
        long denominator = readInWindow + dropped;
        metrics.put("efficiency", denominator == 0 ? 1.0 : (double) readInWindow / denominator);
        metrics.put("lockAcquisitions", (double) diagnostics.lockAcquisitions());
        metrics.put("dropPathLockAcquisitions", (double) diagnostics.dropPathLockAcquisitions());
        metrics.put("writtenTotal", (double) writtenTotal);
        metrics.put("droppedTotal", (double) droppedTotal);
        metrics.put("readTotal", (double) drain.readTotal);
        metrics.put("gapsSeen", (double) drain.reader.dropsSeen());
        if (streamReader != null) {
            metrics.put("streamBytes", (double) streamReader.bytes);
        }
        // The same instructions whatever the score counts (an index, not a branch): the run stays one simulation.
        long[] counted = {readInWindow, attempted};
        long operations = counted[score.ordinal()];
        return new WorkloadResult(measured.workload(), measured.parameters(), measured.platform(), operations,
                measured.elapsedNanos(), metrics);
    }

    /** {@inheritDoc} Here {@code score=read}: the run counts both, in the {@code read} and {@code attempted} metrics. */
    @Override
    public String sharedRunParameters() {
        return new EventPipeStress(threads(), payloadBytes, limitBytes, readerIntervalNanos, Score.READ, streamBytes,
                window()).parameters();
    }

    @Override
    public WorkloadResult scoredFrom(WorkloadResult sharedRun) {
        double counted = sharedRun.metric(score == Score.READ ? "read" : "attempted");
        return new WorkloadResult(NAME, parameters(), sharedRun.platform(), (long) counted, sharedRun.elapsedNanos(),
                sharedRun.metrics());
    }

    /** One writer's outcomes: inside the window, and over the whole run. Written by its writer only. */
    private static final class Tally {
        long attempted;
        long written;
        long dropped;
        long writtenTotal;
        long droppedTotal;

        void record(WriteOutcome outcome, boolean inWindow) {
            boolean kept = outcome == WriteOutcome.WRITTEN;
            boolean lost = outcome == WriteOutcome.DROPPED || outcome == WriteOutcome.DROPPED_OVERSIZED;
            if (kept) {
                writtenTotal++;
            } else if (lost) {
                droppedTotal++;
            }
            if (inWindow && outcome != WriteOutcome.STOPPED) {
                attempted++;
                written += kept ? 1 : 0;
                dropped += lost ? 1 : 0;
            }
        }
    }

    /**
     * The reader thread: EventPipe's streaming loop, copying every payload out, in-process or into
     * the event block that goes to the stream.
     */
    private static final class Drain implements EventConsumer {
        private final MeasuredRun run;
        private final EventReader reader;
        private final byte[] sink = new byte[MAX_PAYLOAD];
        /** Null without a stream. */
        private final StreamPipe stream;
        private final byte[] block;
        private final int eventBytes;
        private int blockFill;
        long readInWindow;
        long readTotal;

        Drain(MeasuredRun run, EventReader reader, StreamPipe stream, int eventBytes) {
            this.run = run;
            this.reader = reader;
            this.stream = stream;
            this.eventBytes = eventBytes;
            this.block = stream == null ? null : new byte[Math.max(EVENT_BLOCK_BYTES, eventBytes)];
        }

        void run(Platform platform, long intervalNanos, CountdownEvent writersDone, EventBufferManager manager)
                throws InterruptedException {
            while (run.running()) {
                int delivered = reader.read(this);
                flushBlock();
                if (delivered == 0) {
                    reader.awaitData(1, TimeUnit.MILLISECONDS);
                }
                if (intervalNanos > 0 && run.running()) {
                    platform.sleep(intervalNanos);
                }
                run.tick();
            }
            writersDone.await();
            manager.stop();
            while (!reader.isDrained()) {
                reader.read(this);
                run.tick();
            }
            if (stream != null) {
                flushBlock();
                stream.close();
            }
        }

        @Override
        public void onEvent(EventView event) {
            if (stream == null) {
                event.copyPayload(sink, 0);
            } else {
                if (blockFill + eventBytes > block.length) {
                    flushBlock();
                }
                event.copyPayload(block, blockFill + EVENT_HEADER_BYTES);
                blockFill += eventBytes;
            }
            long now = run.tick();
            readTotal++;
            if (run.inWindow(now)) {
                readInWindow++;
            }
        }

        /** Writes the event block to the stream, if there is one and it holds events. */
        private void flushBlock() {
            if (stream != null && blockFill > 0) {
                stream.write(block, 0, blockFill);
                blockFill = 0;
            }
        }
    }

    /**
     * The reading process: copies the stream to a file ({@link #STREAM_READ_BYTES} at a time, each
     * read's bytes copied again into the file's pages) until it ends, and counts the whole events
     * received, inside the window and in all.
     */
    private static final class StreamReader {
        private final MeasuredRun run;
        private final StreamPipe stream;
        private final int eventBytes;
        private final byte[] buffer = new byte[STREAM_READ_BYTES];
        private final byte[] file = new byte[STREAM_READ_BYTES];
        long bytes;
        long eventsTotal;
        long eventsInWindow;

        StreamReader(MeasuredRun run, StreamPipe stream, int eventBytes) {
            this.run = run;
            this.stream = stream;
            this.eventBytes = eventBytes;
        }

        void run() {
            for (;;) {
                int n = stream.read(buffer, buffer.length);
                if (n == 0) {
                    return;
                }
                System.arraycopy(buffer, 0, file, 0, n);
                long before = bytes / eventBytes;
                bytes += n;
                long events = bytes / eventBytes - before;
                long now = run.tick();
                eventsTotal += events;
                if (run.inWindow(now)) {
                    eventsInWindow += events;
                }
            }
        }
    }
}
