package io.spinlab.sim.engine;

import io.spinlab.sim.memory.AccessKind;
import io.spinlab.sim.memory.FieldLayouts;
import io.spinlab.sim.memory.FieldSlot;
import io.spinlab.sim.memory.MemoryModel;
import io.spinlab.sim.trace.Picos;

import java.lang.reflect.Array;
import java.lang.reflect.Field;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;

/**
 * The last scheduling points of a run, kept for a failure report: a ring of the newest
 * {@code capacity} points of all threads, each with the field it accessed and the value it saw.
 * Off by default ({@link Simulation.Builder#recordSchedulingPoints}); it reads fields by
 * reflection at every point, which is slow, and it never changes what the run does.
 */
final class SchedulingLog {
    /*
     * Implementation notes
     *
     * Values: a point is logged when the engine handles it, before the access runs (the hook
     * precedes the instruction), so a read's value is the value the read returns: no other
     * thread runs between the hook and the access. A write's new value is read at the
     * thread's next scheduling point (or when the log is read), for the same reason still the
     * value it wrote.
     *
     * Names: an object is named by its class's simple name and its order of first appearance
     * in this log (Node#2), never by an identity hash, so that the report is the same on every
     * run. Field names come from the offsets the instrumentation used (FieldLayouts), walked up
     * the class hierarchy; a VarHandle whose field is unknown prints as "?".
     */

    private static final String UNKNOWN = "?";

    private final int capacity;
    private final FieldLayouts layouts;
    private final Entry[] ring;
    private long written;
    private final IdentityHashMap<Object, Integer> ids = new IdentityHashMap<>();
    private final HashMap<String, Integer> classCounts = new HashMap<>();
    private final HashMap<Class<?>, Map<Long, Field>> fields = new HashMap<>();
    /** Per thread index: its newest write whose new value is still to be read. */
    private final HashMap<Integer, Entry> pendingWrites = new HashMap<>();

    SchedulingLog(int capacity, FieldLayouts layouts) {
        this.capacity = capacity;
        this.layouts = layouts;
        this.ring = new Entry[capacity];
    }

    /** A memory access by {@code t} of {@code target} at byte {@code offset}, handled at {@code picos}. */
    void access(long picos, SimThread t, Object target, long offset, AccessKind kind) {
        settle(t);
        Entry e = new Entry(picos, t, actionOf(kind));
        e.object = target;
        e.offset = offset;
        e.target = describeTarget(target, offset);
        e.before = readValue(target, offset);
        if (kind.exclusive()) {
            pendingWrites.put(t.index, e);
        }
        add(e);
    }

    /** Any other scheduling point of {@code t}. */
    void point(long picos, SimThread t, String action, String target) {
        settle(t);
        Entry e = new Entry(picos, t, action);
        e.target = target;
        add(e);
    }

    /**
     * Logs the request {@code t} stopped at, other than a memory access; {@code unparked} is the
     * target of an unpark (null if it is none of this run's threads, or for other requests).
     */
    void request(long picos, SimThread t, SimThread unparked) {
        switch (t.reqKind) {
            case SimThread.REQ_PAUSE -> point(picos, t, "PAUSE x " + t.reqArg, "");
            case SimThread.REQ_CLOCK -> point(picos, t, "clock", "");
            case SimThread.REQ_CHARGE -> point(picos, t, "charge " + Picos.format(t.reqArg), "");
            case SimThread.REQ_FENCE -> point(picos, t, "full fence", "");
            case SimThread.REQ_YIELD -> point(picos, t, t.reqArg == SimThread.YIELD_SLEEP_ZERO ? "sleep 0" : "yield", "");
            case SimThread.REQ_SLEEP -> point(picos, t, "sleep " + t.reqArg + " ns", "");
            case SimThread.REQ_PARK -> point(picos, t, t.reqArg >= 0 ? "park " + t.reqArg + " ns" : "park",
                    t.reqObject == null ? "" : "on " + name(t.reqObject));
            case SimThread.REQ_UNPARK -> point(picos, t, "unpark", unparked == null ? "" : "'" + unparked.name + "'");
            case SimThread.REQ_START -> point(picos, t, "start", "'" + t.reqObject + "'");
            default -> point(picos, t, "request " + t.reqKind, "");
        }
    }

    /** A name for {@code o} that is stable across runs: {@code SimpleName#n}. */
    String name(Object o) {
        if (o == null) {
            return "null";
        }
        Integer id = ids.get(o);
        if (id == null) {
            String simple = simpleName(o instanceof Class<?> c ? c : o.getClass());
            id = classCounts.merge(simple, 1, Integer::sum) - 1;
            ids.put(o, id);
        }
        return simpleName(o instanceof Class<?> c ? c : o.getClass()) + "#" + id;
    }

    /** The points kept, oldest first, every write's new value filled in. */
    List<SchedulingPoint> points() {
        for (Entry e : pendingWrites.values()) {
            e.after = readValue(e.object, e.offset);
        }
        pendingWrites.clear();
        int n = (int) Math.min(written, capacity);
        List<SchedulingPoint> out = new ArrayList<>(n);
        for (long i = written - n; i < written; i++) {
            out.add(ring[(int) (i % capacity)].point());
        }
        return out;
    }

    private void settle(SimThread t) {
        Entry pending = pendingWrites.remove(t.index);
        if (pending != null) {
            pending.after = readValue(pending.object, pending.offset);
        }
    }

    private void add(Entry e) {
        Entry old = ring[(int) (written % capacity)];
        if (old != null) {
            old.object = null;
        }
        ring[(int) (written % capacity)] = e;
        written++;
    }

    private static String actionOf(AccessKind kind) {
        return switch (kind) {
            case READ -> "read";
            case WRITE -> "write";
            case VOLATILE_WRITE -> "volatile write";
            case READ_MODIFY_WRITE -> "read-modify-write";
        };
    }

    private String describeTarget(Object target, long offset) {
        if (target.getClass().isArray()) {
            int index = arrayIndex(target, offset);
            return name(target) + "[" + (index < 0 ? UNKNOWN : Integer.toString(index)) + "]";
        }
        Field field = field(target, offset);
        String owner = target instanceof Class<?> c ? simpleName(c) : name(target);
        return owner + "." + (field == null ? UNKNOWN : field.getName());
    }

    private String readValue(Object target, long offset) {
        if (target == null) {
            return UNKNOWN;
        }
        try {
            if (target.getClass().isArray()) {
                int index = arrayIndex(target, offset);
                return index < 0 || index >= Array.getLength(target) ? UNKNOWN : format(Array.get(target, index));
            }
            Field field = field(target, offset);
            if (field == null) {
                return UNKNOWN;
            }
            return format(field.get(target instanceof Class<?> ? null : target));
        } catch (ReflectiveOperationException | RuntimeException e) {
            return UNKNOWN;
        }
    }

    private String format(Object value) {
        if (value == null || value instanceof Number || value instanceof Boolean) {
            return String.valueOf(value);
        }
        if (value instanceof Character c) {
            return "'" + c + "'";
        }
        if (value instanceof String s) {
            return "\"" + (s.length() > 40 ? s.substring(0, 40) + "..." : s) + "\"";
        }
        if (value instanceof Enum<?> en) {
            return en.name();
        }
        if (value instanceof Thread thread) {
            return "thread '" + thread.getName() + "'";
        }
        return name(value);
    }

    private static int arrayIndex(Object array, long offset) {
        int element = FieldLayouts.arrayElementBytes(array.getClass().getComponentType());
        long index = (offset - MemoryModel.ARRAY_BASE_BYTES) / element;
        return offset < MemoryModel.ARRAY_BASE_BYTES || index > Integer.MAX_VALUE ? -1 : (int) index;
    }

    /** The field at {@code offset} of {@code target} (a static one when target is a Class), or null. */
    private Field field(Object target, long offset) {
        boolean statics = target instanceof Class<?>;
        Class<?> start = statics ? (Class<?>) target : target.getClass();
        Map<Long, Field> byOffset = fields.computeIfAbsent(start, k -> new HashMap<>());
        if (byOffset.containsKey(offset)) {
            return byOffset.get(offset);
        }
        Field found = null;
        for (Class<?> c = start; c != null && found == null; c = statics ? null : c.getSuperclass()) {
            for (FieldSlot slot : layouts.layout(c.getName().replace('.', '/')).declaredFields()) {
                if (slot.isStatic() == statics && slot.offset() == offset) {
                    found = accessible(c, slot.name());
                    break;
                }
            }
        }
        byOffset.put(offset, found);
        return found;
    }

    private static Field accessible(Class<?> owner, String name) {
        try {
            Field f = owner.getDeclaredField(name);
            f.setAccessible(true);
            return f;
        } catch (ReflectiveOperationException | RuntimeException e) {
            return null;
        }
    }

    private static String simpleName(Class<?> c) {
        String simple = c.getSimpleName();
        if (simple.isEmpty()) {
            String name = c.getName();
            simple = name.substring(name.lastIndexOf('.') + 1);
        }
        return simple;
    }

    /** One logged point, mutable until its write's new value is known. */
    private static final class Entry {
        final long picos;
        final int threadIndex;
        final String thread;
        final String action;
        Object object;
        long offset;
        String target = "";
        String before = "";
        String after;

        Entry(long picos, SimThread t, String action) {
            this.picos = picos;
            this.threadIndex = t.index;
            this.thread = t.name;
            this.action = action;
        }

        SchedulingPoint point() {
            String value = after == null || before.isEmpty() ? before : before + " -> " + after;
            return new SchedulingPoint(picos, threadIndex, thread, action, target, value);
        }
    }
}
