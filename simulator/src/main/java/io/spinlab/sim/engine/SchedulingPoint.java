package io.spinlab.sim.engine;

/**
 * One scheduling point of a run as a failure report shows it: when, which thread, what it did
 * and, for a memory access, the field and its value.
 *
 * @param picos       virtual time at which the engine handled the point
 * @param threadIndex the thread's index (start order, from 0)
 * @param thread      the thread's name
 * @param action      {@code read}, {@code write}, {@code volatile write}, {@code read-modify-write},
 *                    {@code PAUSE x n}, {@code park}, {@code unpark}, {@code yield}, {@code sleep},
 *                    {@code clock}, {@code start}, {@code charge}, {@code end}
 * @param target      for an access the field as {@code Class#id.field} (or {@code int[]#id[3]}); for park
 *                    the blocker; for unpark and start the other thread; else empty
 * @param value       for an access the value the field held when the access was made, and for a write
 *                    or read-modify-write {@code old -> new} (the value after it, read at the thread's next
 *                    scheduling point); else empty
 */
public record SchedulingPoint(long picos, int threadIndex, String thread, String action, String target,
                              String value) {

    /** {@code action target value}, without the time and the thread. */
    public String text() {
        StringBuilder out = new StringBuilder(action);
        if (!target.isEmpty()) {
            out.append(' ').append(target);
        }
        if (!value.isEmpty()) {
            out.append(" = ").append(value);
        }
        return out.toString();
    }
}
