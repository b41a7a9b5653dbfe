package io.spinlab.model.machine;

import java.math.BigDecimal;
import java.util.Arrays;
import java.util.List;
import java.util.regex.Pattern;

/**
 * The fields of a {@link MachineProfile}, each with the name users write in profile files and
 * on the command line ({@code pauseCycles}), its kind of value and its allowed range.
 *
 * <p>This is the one place that knows which fields exist and what they accept: the profile's
 * validation, {@link MachineProfile#withField(String, String)}, the profile file loader and
 * the what-if sweeps all go through it, so they accept the same names and report the same
 * messages. Every range is inclusive.
 */
public enum MachineField {
    /** The profile's name, as reports and the command line show it. */
    NAME("name", Kind.TEXT, 0, 0),
    /** One line saying what the profile stands for; may be empty. */
    DESCRIPTION("description", Kind.TEXT, 0, 0),
    /** Core clock in GHz; converts PAUSE cycles to time. */
    FREQUENCY_GHZ("frequencyGhz", Kind.NUMBER, Limits.MIN_FREQUENCY_GHZ, Limits.MAX_FREQUENCY_GHZ),
    /** Cycles one PAUSE takes; 0 models a PAUSE that is a no-op. */
    PAUSE_CYCLES("pauseCycles", Kind.WHOLE_NUMBER, 0, Limits.MAX_PAUSE_CYCLES),
    /** Physical cores. */
    PHYSICAL_CORES("physicalCores", Kind.WHOLE_NUMBER, 1, Limits.MAX_PROCESSORS),
    /** Logical processors (what {@code Environment.ProcessorCount} reports); a multiple of the cores. */
    LOGICAL_PROCESSORS("logicalProcessors", Kind.WHOLE_NUMBER, 1, Limits.MAX_PROCESSORS),
    /** Cost of one clock read, ns. */
    CLOCK_READ_NS("clockReadNs", Kind.NUMBER, 0, Limits.MAX_COST_NS),
    /** Cost of an uncontended atomic read-modify-write, ns. */
    ATOMIC_OP_NS("atomicOpNs", Kind.NUMBER, 0, Limits.MAX_COST_NS),
    /** Cost of moving a cache line from another core, ns. */
    CACHE_LINE_TRANSFER_NS("cacheLineTransferNs", Kind.NUMBER, 0, Limits.MAX_COST_NS),
    /** Cost of a context switch, ns. */
    CONTEXT_SWITCH_NS("contextSwitchNs", Kind.NUMBER, 0, Limits.MAX_COST_NS),
    /** Delay from an unpark to the woken thread being runnable, ns. */
    WAKE_LATENCY_NS("wakeLatencyNs", Kind.NUMBER, 0, Limits.MAX_COST_NS),
    /** Cost of a yield when another thread is ready (a context switch), ns. */
    YIELD_READY_NS("yieldReadyNs", Kind.NUMBER, 0, Limits.MAX_COST_NS),
    /** Cost of a yield when no other thread is ready (just the system call), ns. */
    YIELD_IDLE_NS("yieldIdleNs", Kind.NUMBER, 0, Limits.MAX_COST_NS),
    /** Timer granularity: sleeps are rounded up to a multiple of it, ns. */
    SLEEP_GRANULARITY_NS("sleepGranularityNs", Kind.NUMBER, Limits.MIN_POSITIVE_NS, Limits.MAX_COST_NS),
    /**
     * Scheduler time slice, ns: on Windows the quantum; on Linux (EEVDF) the scheduler tick
     * (1/HZ), at which a thread that has used its slice can be preempted; on CFS the slice.
     */
    TIME_SLICE_NS("timeSliceNs", Kind.NUMBER, Limits.MIN_POSITIVE_NS, Limits.MAX_COST_NS),
    /** Cache line size in bytes, a power of two. */
    CACHE_LINE_BYTES("cacheLineBytes", Kind.WHOLE_NUMBER, Limits.MIN_CACHE_LINE_BYTES, Limits.MAX_CACHE_LINE_BYTES),
    /**
     * Core cycles one executed bytecode instruction of guest code costs between two scheduling
     * points (the simulator's instruction clock); 0 makes that code free.
     */
    CYCLES_PER_BYTECODE("cyclesPerBytecode", Kind.NUMBER, 0, Limits.MAX_CYCLES_PER_BYTECODE),
    /**
     * Bytes one core stores per cycle when it zeroes or copies memory: guest code that allocates an
     * array or calls {@code System.arraycopy} costs its bytes divided by this, in cycles.
     */
    STORE_BYTES_PER_CYCLE("storeBytesPerCycle", Kind.NUMBER, 1, Limits.MAX_STORE_BYTES_PER_CYCLE),
    /**
     * Run-to-run noise of the wake latency, %: with noise on, each wake-up takes the wake latency
     * times a uniform draw in [1 − p/100, 1 + p/100].
     */
    WAKE_JITTER_PERCENT("wakeJitterPercent", Kind.NUMBER, 0, 100),
    /**
     * Run-to-run noise of PAUSE and clock-read costs, %: with noise on, each PAUSE batch and
     * clock read costs its price times a uniform draw in [1 − p/100, 1 + p/100].
     */
    COST_JITTER_PERCENT("costJitterPercent", Kind.NUMBER, 0, 100),
    /**
     * Whose scheduler the machine runs, {@code windows}, {@code linux} (6.6 and later, EEVDF) or
     * {@code linux-cfs} (before 6.6): how a woken thread is placed, and what a yield and a zero
     * sleep give way to (see {@link OperatingSystem}).
     */
    OS("os", Kind.CHOICE, 0, 0),
    /**
     * How many times longer a logical processor's instructions take while another logical
     * processor of its core issues instructions too (SMT); 1 makes siblings independent. Only
     * parts with more than one thread per core use it.
     */
    SMT_SLOWDOWN("smtSlowdown", Kind.NUMBER, 1, Limits.MAX_SMT_SLOWDOWN),
    /**
     * What waking one blocked thread costs the waker, ns: the system call that makes it runnable
     * ({@code FUTEX_WAKE} on Linux, {@code SetEvent} on Windows), charged for each unpark that
     * finds its thread parked.
     */
    WAKE_CALL_NS("wakeCallNs", Kind.NUMBER, 0, Limits.MAX_COST_NS),
    /**
     * Processor packages the physical cores are spread over, as evenly as they divide: core c of
     * n is on socket {@code c × sockets ÷ n}; at most one per core.
     */
    SOCKETS("sockets", Kind.WHOLE_NUMBER, 1, Limits.MAX_PROCESSORS),
    /**
     * Cost of moving a cache line from a core on another socket, ns ({@code cacheLineTransferNs}
     * is the cost within one socket); only parts with more than one socket use it.
     */
    CROSS_SOCKET_TRANSFER_NS("crossSocketTransferNs", Kind.NUMBER, 0, Limits.MAX_COST_NS),
    /**
     * Cost of a store or read-modify-write by a core that holds a shared copy of the line, ns: the
     * other copies are invalidated and no data moves (an upgrade; a core without a copy pays
     * {@code cacheLineTransferNs}); between sockets it scales as crossSocketTransferNs does.
     */
    INVALIDATION_NS("invalidationNs", Kind.NUMBER, 0, Limits.MAX_COST_NS);

    /*
     * Implementation notes
     *
     * Invariants: min <= max; for WHOLE_NUMBER fields both fit in an int; every range is
     * inclusive, so one message format ("allowed min..max") covers them all.
     *
     * Why these limits: costs stop at one second, which no real operation approaches and
     * which catches a unit mistake (seconds or picoseconds written as nanoseconds); positive
     * times stop at one picosecond, the simulator's resolution; the frequency starts at
     * 10 MHz, which keeps MachineProfile.pausePicos free of overflow for 2^31 PAUSEs of
     * 10,000 cycles (see MachineProfile, Implementation notes).
     */

    /** The kind of value a field holds, and so how its text is parsed. */
    public enum Kind {
        /** A string. */
        TEXT,
        /** An {@code int}, written without a fraction or exponent. */
        WHOLE_NUMBER,
        /** A finite {@code double}. */
        NUMBER,
        /** One of a fixed list of names ({@link #choices()}). */
        CHOICE
    }

    /** Plain decimal notation, optionally with an exponent; excludes hex floats, NaN, type suffixes. */
    private static final Pattern DECIMAL = Pattern.compile("[+-]?(\\d+(\\.\\d*)?|\\.\\d+)([eE][+-]?\\d+)?");
    private static final Pattern WHOLE = Pattern.compile("[+-]?\\d+");
    /** What Double.toString writes for the values a finite-number check rejects. */
    private static final Pattern NOT_FINITE = Pattern.compile("NaN|[+-]?Infinity");

    private final String fieldName;
    private final Kind kind;
    private final double min;
    private final double max;

    MachineField(String fieldName, Kind kind, double min, double max) {
        this.fieldName = fieldName;
        this.kind = kind;
        this.min = min;
        this.max = max;
    }

    /** The name used in files and on the command line, e.g. {@code pauseCycles}. */
    public String fieldName() {
        return fieldName;
    }

    /** The kind of value this field holds. */
    public Kind kind() {
        return kind;
    }

    /** The names a {@link Kind#CHOICE} field accepts; empty for the other kinds. */
    public List<String> choices() {
        return this == OS ? OperatingSystem.texts() : List.of();
    }

    /** The smallest allowed value of a numeric field (0 for text fields). */
    public double min() {
        return min;
    }

    /** The largest allowed value of a numeric field (0 for text fields). */
    public double max() {
        return max;
    }

    /** What the field accepts, as error messages say it: {@code 0..10000}, or {@code one line of text}. */
    public String allowed() {
        if (this == CACHE_LINE_BYTES) {
            return "a power of two in " + format(min) + ".." + format(max);
        }
        if (kind == Kind.TEXT) {
            return "one line of text";
        }
        if (kind == Kind.CHOICE) {
            return "one of " + String.join(", ", choices());
        }
        return format(min) + ".." + format(max);
    }

    /** Looks a field up by its file name; unknown names are rejected with the list of valid ones. */
    public static MachineField byName(String fieldName) {
        for (MachineField field : values()) {
            if (field.fieldName.equals(fieldName)) {
                return field;
            }
        }
        throw new IllegalArgumentException("unknown machine field '" + fieldName + "'; valid fields: "
                + String.join(", ", names()));
    }

    /** The file names of all fields, in declaration order. */
    public static List<String> names() {
        return Arrays.stream(values()).map(MachineField::fieldName).toList();
    }

    /**
     * This field's value in {@code profile} as text that {@link MachineProfile#withField} accepts back:
     * whole numbers in decimal, numbers in plain decimal notation without trailing zeros.
     */
    public String text(MachineProfile profile) {
        Object value = valueIn(profile);
        if (value instanceof Double number) {
            return format(number);
        }
        return String.valueOf(value);
    }

    /**
     * This field's value in {@code profile}: a {@link String}, an {@link Integer} or a
     * {@link Double} according to its {@link #kind()}.
     */
    public Object valueIn(MachineProfile profile) {
        return switch (this) {
            case NAME -> profile.name();
            case DESCRIPTION -> profile.description();
            case FREQUENCY_GHZ -> profile.frequencyGhz();
            case PAUSE_CYCLES -> profile.pauseCycles();
            case PHYSICAL_CORES -> profile.physicalCores();
            case LOGICAL_PROCESSORS -> profile.logicalProcessors();
            case CLOCK_READ_NS -> profile.clockReadNs();
            case ATOMIC_OP_NS -> profile.atomicOpNs();
            case CACHE_LINE_TRANSFER_NS -> profile.cacheLineTransferNs();
            case CONTEXT_SWITCH_NS -> profile.contextSwitchNs();
            case WAKE_LATENCY_NS -> profile.wakeLatencyNs();
            case YIELD_READY_NS -> profile.yieldReadyNs();
            case YIELD_IDLE_NS -> profile.yieldIdleNs();
            case SLEEP_GRANULARITY_NS -> profile.sleepGranularityNs();
            case TIME_SLICE_NS -> profile.timeSliceNs();
            case CACHE_LINE_BYTES -> profile.cacheLineBytes();
            case CYCLES_PER_BYTECODE -> profile.cyclesPerBytecode();
            case STORE_BYTES_PER_CYCLE -> profile.storeBytesPerCycle();
            case WAKE_JITTER_PERCENT -> profile.wakeJitterPercent();
            case COST_JITTER_PERCENT -> profile.costJitterPercent();
            case OS -> profile.os().text();
            case SMT_SLOWDOWN -> profile.smtSlowdown();
            case WAKE_CALL_NS -> profile.wakeCallNs();
            case SOCKETS -> profile.sockets();
            case CROSS_SOCKET_TRANSFER_NS -> profile.crossSocketTransferNs();
            case INVALIDATION_NS -> profile.invalidationNs();
        };
    }

    // Checks and parsing, shared by MachineProfile and its Builder

    /** Rejects a whole-number value outside the range, naming machine, field, value and range. */
    void checkWhole(String machine, long value) {
        assert kind == Kind.WHOLE_NUMBER : this;
        if (value < min || value > max) {
            throw outOfRange(machine, Long.toString(value));
        }
        if (this == CACHE_LINE_BYTES && Long.bitCount(value) != 1) {
            throw new IllegalArgumentException(prefix(machine) + fieldName + " = " + value
                    + " is not a power of two; allowed " + allowed());
        }
    }

    /** Rejects a non-finite or out-of-range number, naming machine, field, value and range. */
    void checkNumber(String machine, double value) {
        assert kind == Kind.NUMBER : this;
        if (!Double.isFinite(value)) {
            throw new IllegalArgumentException(prefix(machine) + fieldName + " = " + value
                    + " is not a finite number; allowed " + allowed());
        }
        if (value < min || value > max) {
            throw outOfRange(machine, format(value));
        }
    }

    /** Parses the text of a whole-number field and checks its range. */
    int parseWhole(String machine, String text) {
        assert kind == Kind.WHOLE_NUMBER : this;
        String trimmed = text.strip();
        if (!WHOLE.matcher(trimmed).matches()) {
            throw new IllegalArgumentException(prefix(machine) + fieldName + " = '" + text
                    + "' is not a whole number; allowed " + allowed());
        }
        long value;
        try {
            value = Long.parseLong(trimmed);
        } catch (NumberFormatException tooLong) {
            throw outOfRange(machine, trimmed);
        }
        checkWhole(machine, value);
        return (int) value;
    }

    /** Parses the name of an operating system ({@link #OS}), rejecting any other with the allowed names. */
    OperatingSystem parseOs(String machine, String text) {
        assert this == OS : this;
        OperatingSystem os = OperatingSystem.byText(text.strip());
        if (os == null) {
            throw new IllegalArgumentException(prefix(machine) + fieldName + " = '" + text + "' is not known; allowed "
                    + allowed());
        }
        return os;
    }

    /** Parses the text of a number field and checks it is finite and in range. */
    double parseNumber(String machine, String text) {
        assert kind == Kind.NUMBER : this;
        String trimmed = text.strip();
        if (NOT_FINITE.matcher(trimmed).matches()) {
            checkNumber(machine, Double.parseDouble(trimmed));
        }
        if (!DECIMAL.matcher(trimmed).matches()) {
            throw new IllegalArgumentException(prefix(machine) + fieldName + " = '" + text
                    + "' is not a number; allowed " + allowed());
        }
        double value = Double.parseDouble(trimmed);
        checkNumber(machine, value);
        return value;
    }

    private IllegalArgumentException outOfRange(String machine, String valueText) {
        return new IllegalArgumentException(prefix(machine) + fieldName + " = " + valueText
                + " is out of range; allowed " + allowed());
    }

    /** {@code machine 'x': }, the start of every message about a field of machine x. */
    static String prefix(String machine) {
        return "machine '" + machine + "': ";
    }

    /** A finite double in plain notation without trailing zeros: 3.4, 1060000, 0.01. */
    static String format(double value) {
        if (!Double.isFinite(value)) {
            return Double.toString(value);
        }
        if (value == 0) {
            return "0";
        }
        return BigDecimal.valueOf(value).stripTrailingZeros().toPlainString();
    }

    /** The limits, in a holder because enum constants cannot refer to the enum's own static fields. */
    static final class Limits {
        static final double MIN_FREQUENCY_GHZ = 0.01;
        static final double MAX_FREQUENCY_GHZ = 10;
        static final int MAX_PAUSE_CYCLES = 10_000;
        static final int MAX_PROCESSORS = 4096;
        /** One second. */
        static final double MAX_COST_NS = 1_000_000_000;
        /** One picosecond, the simulator's resolution. */
        static final double MIN_POSITIVE_NS = 0.001;
        static final int MIN_CACHE_LINE_BYTES = 16;
        static final int MAX_CACHE_LINE_BYTES = 512;
        /** A bytecode that takes 100 cycles is a unit mistake (ns for cycles) rather than a machine. */
        static final double MAX_CYCLES_PER_BYTECODE = 100;
        static final double MAX_STORE_BYTES_PER_CYCLE = 1024;
        /** Two threads on one core each running at a quarter speed is already far below any measured part. */
        static final double MAX_SMT_SLOWDOWN = 4;

        private Limits() {
        }
    }
}
