package io.spinlab.sim.trace;

import com.fasterxml.jackson.core.JsonEncoding;
import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.StreamWriteFeature;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Records a run as a timeline and writes it as Chrome trace-event JSON, which Perfetto
 * ({@code ui.perfetto.dev}) and {@code chrome://tracing} open.
 *
 * <p>The file has two processes: {@code processors}, one lane per logical processor with a
 * slice per stretch of a thread running on it; and {@code threads}, one lane per simulated
 * thread with slices for what it did ({@code working}, {@code spinning}, {@code yielding},
 * {@code sleeping}, {@code parked on <blocker>}, {@code runnable}). Unparks are instants on the
 * waker's lane joined by a flow arrow to the woken thread's lane; preemptions and wake-ups are
 * instants. Times are microseconds with picosecond precision.
 *
 * <p>Adjacent stretches of the same activity are merged, so a spin loop of a thousand PAUSE
 * calls is one slice. Recording stops (and the file says so) after {@code maxRecords} slices
 * and instants. Not thread-safe; the engine records, anyone may write once the run is over.
 */
public final class TraceRecorder {
    /*
     * Implementation notes
     *
     * Storage: finished slices and instants go to growable long arrays (five longs each), open
     * slices live per lane until a different activity (or a gap) closes them. Lanes of threads
     * are their indices; processor lanes are stored as -1 - index.
     *
     * Why not Jackson's tree model while recording: a run records millions of stretches; long
     * arrays cost 40 bytes a slice and no object per slice. Jackson streams the JSON at the end.
     */

    /** Instant kinds. */
    static final int UNPARK = 0;
    static final int WOKEN = 1;
    static final int PREEMPTED = 2;
    static final int FLOW_START = 3;
    static final int FLOW_END = 4;

    /** Slice kind for a processor lane: {@code arg} is the running thread. */
    private static final int RUNS = -1;
    private static final int FIELDS = 5;
    private static final int PROCESSES_PID = 1;
    private static final int THREADS_PID = 2;
    private static final BigDecimal PICOS_PER_MICRO = BigDecimal.valueOf(1_000_000L);

    private final int processorCount;
    private final long maxRecords;
    private long[] slices = new long[FIELDS * 1024];
    private int sliceCount;
    private long[] instants = new long[FIELDS * 256];
    private int instantCount;
    private boolean truncated;

    private int[] openThreadKind = new int[16];
    private long[] openThreadStart = new long[16];
    private long[] openThreadEnd = new long[16];
    private long[] openThreadArg = new long[16];
    private final long[] openProcessorStart;
    private final long[] openProcessorEnd;
    private final int[] openProcessorThread;

    private List<String> threadNames = List.of();
    private List<String> blockerNames = List.of();
    private Map<String, String> metadata = Map.of();
    private boolean finished;

    /**
     * @param processorCount the machine's logical processors
     * @param maxRecords     slices plus instants kept at most
     */
    public TraceRecorder(int processorCount, long maxRecords) {
        this.processorCount = processorCount;
        this.maxRecords = maxRecords;
        this.openProcessorStart = new long[processorCount];
        this.openProcessorEnd = new long[processorCount];
        this.openProcessorThread = new int[processorCount];
        Arrays.fill(openProcessorThread, -1);
        Arrays.fill(openThreadKind, -1);
    }

    /** Thread {@code thread} spent {@code [start, end)} in {@code activity}; {@code blocker} is its id or -1. */
    public void threadActivity(int thread, Activity activity, long start, long end, int blocker) {
        if (end <= start) {
            return;
        }
        ensureThreadLane(thread);
        int kind = activity.ordinal();
        if (openThreadKind[thread] == kind && openThreadArg[thread] == blocker && openThreadEnd[thread] == start) {
            openThreadEnd[thread] = end;
            return;
        }
        if (openThreadKind[thread] >= 0) {
            addSlice(thread, openThreadKind[thread], openThreadStart[thread], openThreadEnd[thread],
                    openThreadArg[thread]);
        }
        openThreadKind[thread] = kind;
        openThreadStart[thread] = start;
        openThreadEnd[thread] = end;
        openThreadArg[thread] = blocker;
    }

    /** Thread {@code thread} ran on {@code processor} during {@code [start, end)}. */
    public void processorRun(int processor, int thread, long start, long end) {
        if (end <= start) {
            return;
        }
        if (openProcessorThread[processor] == thread && openProcessorEnd[processor] == start) {
            openProcessorEnd[processor] = end;
            return;
        }
        if (openProcessorThread[processor] >= 0) {
            addSlice(-1 - processor, RUNS, openProcessorStart[processor], openProcessorEnd[processor],
                    openProcessorThread[processor]);
        }
        openProcessorThread[processor] = thread;
        openProcessorStart[processor] = start;
        openProcessorEnd[processor] = end;
    }

    /**
     * Thread {@code thread}'s last activity and its run on {@code processor} end at {@code at}
     * after all: the operation recorded last for both was cut short (a PAUSE batch preempted).
     */
    public void cutShort(int thread, int processor, long at) {
        if (thread < openThreadEnd.length && openThreadKind[thread] >= 0 && openThreadEnd[thread] > at) {
            openThreadEnd[thread] = Math.max(at, openThreadStart[thread]);
        }
        if (openProcessorThread[processor] == thread && openProcessorEnd[processor] > at) {
            openProcessorEnd[processor] = Math.max(at, openProcessorStart[processor]);
        }
    }

    /** {@code waker} unparked {@code target} at {@code time}; {@code flowId} joins it to the wake-up, or -1. */
    public void unpark(long time, int waker, int target, long flowId) {
        addInstant(UNPARK, time, waker, target, flowId);
        if (flowId >= 0) {
            addInstant(FLOW_START, time, waker, target, flowId);
        }
    }

    /**
     * {@code thread} became runnable after park or sleep at {@code time}, for {@code cause}
     * (0 unpark, 1 timeout, 2 spurious, 3 interrupt); {@code flowId} is the unpark's, or -1.
     */
    public void woken(long time, int thread, int cause, long flowId) {
        addInstant(WOKEN, time, thread, cause, flowId);
        if (flowId >= 0) {
            addInstant(FLOW_END, time, thread, cause, flowId);
        }
    }

    /** {@code thread} was preempted at {@code time}: by its time slice, or by an injected fault. */
    public void preempted(long time, int thread, boolean injected) {
        addInstant(PREEMPTED, time, thread, injected ? 1 : 0, -1);
    }

    /** True if recording stopped at the record limit. */
    public boolean truncated() {
        return truncated;
    }

    /** Slices recorded so far (closed ones). */
    public int sliceCount() {
        return sliceCount;
    }

    /**
     * Closes open slices and names the lanes; called by the engine when the run ends.
     *
     * @param metadata written under {@code otherData}: machine, seed, outcome, digest
     */
    public void finish(List<String> threads, List<String> blockers, Map<String, String> metadata) {
        if (finished) {
            return;
        }
        for (int t = 0; t < openThreadKind.length; t++) {
            if (openThreadKind[t] >= 0) {
                addSlice(t, openThreadKind[t], openThreadStart[t], openThreadEnd[t], openThreadArg[t]);
                openThreadKind[t] = -1;
            }
        }
        for (int p = 0; p < processorCount; p++) {
            if (openProcessorThread[p] >= 0) {
                addSlice(-1 - p, RUNS, openProcessorStart[p], openProcessorEnd[p], openProcessorThread[p]);
                openProcessorThread[p] = -1;
            }
        }
        this.threadNames = List.copyOf(threads);
        this.blockerNames = List.copyOf(blockers);
        this.metadata = new LinkedHashMap<>(metadata);
        this.finished = true;
    }

    /** The trace as Chrome trace-event JSON in UTF-8. */
    public byte[] toChromeJson() {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try {
            writeChromeJson(out);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out.toByteArray();
    }

    /** Writes the trace as Chrome trace-event JSON; the stream is left open. */
    public void writeChromeJson(OutputStream out) throws IOException {
        Objects.requireNonNull(out, "out");
        if (!finished) {
            throw new IllegalStateException("the run has not finished; no trace yet");
        }
        JsonFactory factory = JsonFactory.builder().disable(StreamWriteFeature.AUTO_CLOSE_TARGET)
                .enable(StreamWriteFeature.WRITE_BIGDECIMAL_AS_PLAIN).build();
        try (JsonGenerator json = factory.createGenerator(out, JsonEncoding.UTF8)) {
            json.writeStartObject();
            json.writeStringField("displayTimeUnit", "ns");
            json.writeObjectFieldStart("otherData");
            for (Map.Entry<String, String> entry : metadata.entrySet()) {
                json.writeStringField(entry.getKey(), entry.getValue());
            }
            json.writeBooleanField("truncated", truncated);
            json.writeEndObject();
            json.writeArrayFieldStart("traceEvents");
            writeLaneNames(json);
            for (int i = 0; i < sliceCount; i++) {
                writeSlice(json, i * FIELDS);
            }
            for (int i = 0; i < instantCount; i++) {
                writeInstant(json, i * FIELDS);
            }
            json.writeEndArray();
            json.writeEndObject();
        }
    }

    private void writeLaneNames(JsonGenerator json) throws IOException {
        writeProcessName(json, PROCESSES_PID, "processors", 0);
        for (int p = 0; p < processorCount; p++) {
            writeThreadName(json, PROCESSES_PID, p, "cpu " + p);
        }
        writeProcessName(json, THREADS_PID, "threads", 1);
        for (int t = 0; t < threadNames.size(); t++) {
            writeThreadName(json, THREADS_PID, t, threadNames.get(t));
        }
    }

    private static void writeProcessName(JsonGenerator json, int pid, String name, int order) throws IOException {
        json.writeStartObject();
        json.writeStringField("ph", "M");
        json.writeStringField("name", "process_name");
        json.writeNumberField("pid", pid);
        json.writeObjectFieldStart("args");
        json.writeStringField("name", name);
        json.writeEndObject();
        json.writeEndObject();
        json.writeStartObject();
        json.writeStringField("ph", "M");
        json.writeStringField("name", "process_sort_index");
        json.writeNumberField("pid", pid);
        json.writeObjectFieldStart("args");
        json.writeNumberField("sort_index", order);
        json.writeEndObject();
        json.writeEndObject();
    }

    private static void writeThreadName(JsonGenerator json, int pid, int tid, String name) throws IOException {
        json.writeStartObject();
        json.writeStringField("ph", "M");
        json.writeStringField("name", "thread_name");
        json.writeNumberField("pid", pid);
        json.writeNumberField("tid", tid);
        json.writeObjectFieldStart("args");
        json.writeStringField("name", name);
        json.writeEndObject();
        json.writeEndObject();
    }

    private void writeSlice(JsonGenerator json, int at) throws IOException {
        long lane = slices[at];
        int kind = (int) slices[at + 1];
        long start = slices[at + 2];
        long end = slices[at + 3];
        long arg = slices[at + 4];
        json.writeStartObject();
        json.writeStringField("ph", "X");
        if (kind == RUNS) {
            json.writeStringField("name", threadName((int) arg));
            json.writeStringField("cat", "cpu");
            json.writeNumberField("pid", PROCESSES_PID);
            json.writeNumberField("tid", -1 - lane);
        } else {
            Activity activity = Activity.values()[kind];
            String name = activity == Activity.PARKED && arg >= 0 ? "parked on " + blockerName((int) arg)
                    : activity.label();
            json.writeStringField("name", name);
            json.writeStringField("cat", activity.label());
            json.writeNumberField("pid", THREADS_PID);
            json.writeNumberField("tid", lane);
        }
        json.writeFieldName("ts");
        json.writeNumber(micros(start));
        json.writeFieldName("dur");
        json.writeNumber(micros(end - start));
        json.writeEndObject();
    }

    private void writeInstant(JsonGenerator json, int at) throws IOException {
        int kind = (int) instants[at];
        long time = instants[at + 1];
        int thread = (int) instants[at + 2];
        long a = instants[at + 3];
        long flow = instants[at + 4];
        json.writeStartObject();
        switch (kind) {
            case UNPARK -> {
                json.writeStringField("ph", "i");
                json.writeStringField("s", "t");
                json.writeStringField("name", "unpark " + threadName((int) a));
                json.writeStringField("cat", "wake");
            }
            case WOKEN -> {
                json.writeStringField("ph", "i");
                json.writeStringField("s", "t");
                json.writeStringField("name", "woken (" + causeName((int) a) + ")");
                json.writeStringField("cat", "wake");
            }
            case PREEMPTED -> {
                json.writeStringField("ph", "i");
                json.writeStringField("s", "t");
                json.writeStringField("name", a == 1 ? "preempted (injected)" : "preempted (time slice)");
                json.writeStringField("cat", "sched");
            }
            case FLOW_START, FLOW_END -> {
                json.writeStringField("ph", kind == FLOW_START ? "s" : "f");
                if (kind == FLOW_END) {
                    json.writeStringField("bp", "e");
                }
                json.writeStringField("name", "unpark");
                json.writeStringField("cat", "wake");
                json.writeNumberField("id", flow);
            }
            default -> throw new AssertionError("instant kind " + kind);
        }
        json.writeNumberField("pid", THREADS_PID);
        json.writeNumberField("tid", thread);
        json.writeFieldName("ts");
        json.writeNumber(micros(time));
        json.writeEndObject();
    }

    private static String causeName(int cause) {
        return switch (cause) {
            case 0 -> "unpark";
            case 1 -> "timeout";
            case 2 -> "spurious";
            case 3 -> "interrupt";
            case 4 -> "unpark before asleep";
            default -> "cause " + cause;
        };
    }

    private String threadName(int thread) {
        return thread >= 0 && thread < threadNames.size() ? threadNames.get(thread) : "thread " + thread;
    }

    private String blockerName(int blocker) {
        return blocker < blockerNames.size() ? blockerNames.get(blocker) : "blocker " + blocker;
    }

    private static BigDecimal micros(long picos) {
        return BigDecimal.valueOf(picos).divide(PICOS_PER_MICRO);
    }

    private void addSlice(long lane, int kind, long start, long end, long arg) {
        if (!room()) {
            return;
        }
        if ((sliceCount + 1) * FIELDS > slices.length) {
            slices = Arrays.copyOf(slices, slices.length * 2);
        }
        int at = sliceCount * FIELDS;
        slices[at] = lane;
        slices[at + 1] = kind;
        slices[at + 2] = start;
        slices[at + 3] = end;
        slices[at + 4] = arg;
        sliceCount++;
    }

    private void addInstant(int kind, long time, int thread, long a, long b) {
        if (!room()) {
            return;
        }
        if ((instantCount + 1) * FIELDS > instants.length) {
            instants = Arrays.copyOf(instants, instants.length * 2);
        }
        int at = instantCount * FIELDS;
        instants[at] = kind;
        instants[at + 1] = time;
        instants[at + 2] = thread;
        instants[at + 3] = a;
        instants[at + 4] = b;
        instantCount++;
    }

    private boolean room() {
        if ((long) sliceCount + instantCount >= maxRecords) {
            truncated = true;
            return false;
        }
        return true;
    }

    private void ensureThreadLane(int thread) {
        if (thread < openThreadKind.length) {
            return;
        }
        int size = Math.max(thread + 1, openThreadKind.length * 2);
        int old = openThreadKind.length;
        openThreadKind = Arrays.copyOf(openThreadKind, size);
        Arrays.fill(openThreadKind, old, size, -1);
        openThreadStart = Arrays.copyOf(openThreadStart, size);
        openThreadEnd = Arrays.copyOf(openThreadEnd, size);
        openThreadArg = Arrays.copyOf(openThreadArg, size);
    }

    /** Names of the slice categories a trace may contain (for tests and viewers). */
    public static List<String> categories() {
        List<String> names = new ArrayList<>();
        names.add("cpu");
        for (Activity a : Activity.values()) {
            names.add(a.label());
        }
        return names;
    }
}
