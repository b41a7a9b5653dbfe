package io.spinlab.sim.engine;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodType;
import java.lang.invoke.VarHandle;
import java.util.ArrayList;
import java.util.IdentityHashMap;

/**
 * Stores without a fence that wait in a store buffer: made by their thread, not yet seen by the
 * others. The memory model says when such a store commits (the line came, and every earlier
 * store of its processor committed: x86 commits in order); until then its thread sees the new
 * value and every other thread the value before it. The engine keeps the JVM's memory at the
 * newest values and, while a simulated thread runs, shows it its own view: the stores of
 * other threads that have not committed are undone for the time it runs and redone when it
 * stops. Exactly one simulated thread runs at a time, so a view is the memory that thread reads
 * with any instruction, instrumented or not.
 */
final class BufferedStores {
    /*
     * Implementation notes
     *
     * Which stores: VarHandle set, setOpaque and setRelease (AccessKind.WRITE) whose commit comes
     * after their thread goes on; the instrumented helper of such a call reports the location
     * before the store (begin: the value others still see) and after it (stored: the new
     * value). A location is (handle, receiver, index); two handles on one field are two
     * locations (guest code uses one handle per field).
     *
     * Order: the stores to one location commit one after another (the line moves between them),
     * so they form a chain in the order of their commits, which is the list's order (a store
     * made by the line's holder before another core's request reached it commits before that
     * request's store, though it was made later); each store's old value is the one before it in
     * its chain, the first's the committed value. Memory holds each chain's last value.
     *
     * A view of thread x: walking the pending stores from the last back, every store of another
     * thread to a location is undone (its old value written) until a store of x to that location
     * is met: x sees its own last store and what stood before others' later ones. When x stops,
     * each location gets its chain's last value back; if x wrote an undone location meanwhile
     * without a buffered store (a CAS on a line it still held before the others' request reached
     * it, or a plain store), that write takes its place in the chain: before the undone stores,
     * or in place of x's own last store's value.
     *
     * Commits only remove a store from the list: memory already holds it when no thread runs,
     * and a running thread's view is rebuilt after a commit. Nothing here is in the digest; it
     * changes what threads read, and so their requests.
     */

    private final ArrayList<Pending> pending = new ArrayList<>();
    /** Stores undone for the running thread's view, in the order they were undone (newest first). */
    private final ArrayList<Pending> undone = new ArrayList<>();
    private final IdentityHashMap<VarHandle, Accessors> accessors = new IdentityHashMap<>();
    /** The thread whose view memory shows, or null (the newest values). */
    private SimThread viewer;

    /** The store {@code t} is about to make waits in the buffer until {@code commitAt}: read what others still see. */
    void begin(SimThread t, VarHandle handle, Object receiver, int index, long commitAt) {
        Accessors a = accessors(handle);
        t.storeInFlight = new Pending(t, handle, a, receiver, index, a.read(receiver, index), commitAt);
    }

    /** The store begun by {@code t} is made: record its new value; it is pending until it commits. */
    void stored(SimThread t, VarHandle handle, Object receiver, int index) {
        Pending p = t.storeInFlight;
        if (p == null) {
            return;
        }
        t.storeInFlight = null;
        if (p.handle != handle || p.receiver != receiver || p.index != index) {
            throw new IllegalStateException("a buffered store of " + t + " ended at another location than it began");
        }
        p.newValue = p.accessors.read(receiver, index);
        // the buffers commit one location's stores in the order of their commits: keep that order
        int at = pending.size();
        while (at > 0 && pending.get(at - 1).commitAt > p.commitAt) {
            at--;
        }
        Pending before = lastAt(p, at);
        if (before != null) {
            p.oldValue = before.newValue;
        }
        Pending after = firstFrom(p, at);
        if (after != null) {
            after.oldValue = p.newValue;
        }
        pending.add(at, p);
    }

    /** The last pending store to {@code p}'s location before list position {@code end}, or null. */
    private Pending lastAt(Pending p, int end) {
        for (int i = end - 1; i >= 0; i--) {
            if (pending.get(i).sameLocation(p)) {
                return pending.get(i);
            }
        }
        return null;
    }

    /** The first pending store to {@code p}'s location from list position {@code start}, or null. */
    private Pending firstFrom(Pending p, int start) {
        for (int i = start; i < pending.size(); i++) {
            if (pending.get(i).sameLocation(p)) {
                return pending.get(i);
            }
        }
        return null;
    }

    boolean isEmpty() {
        return pending.isEmpty();
    }

    /** Shows {@code x}'s view while it runs. */
    void show(SimThread x) {
        if (pending.isEmpty()) {
            return;
        }
        viewer = x;
        for (int i = pending.size() - 1; i >= 0; i--) {
            Pending p = pending.get(i);
            if (p.owner == x || seenBy(x, p, i)) {
                continue;
            }
            p.accessors.write(p.receiver, p.index, p.oldValue);
            undone.add(p);
        }
    }

    /** Whether a later store of {@code x} to {@code p}'s location (pending index above {@code i}) hides {@code p} from undoing. */
    private boolean seenBy(SimThread x, Pending p, int i) {
        for (int j = i + 1; j < pending.size(); j++) {
            Pending later = pending.get(j);
            if (later.owner == x && later.sameLocation(p)) {
                return true;
            }
        }
        return false;
    }

    /**
     * Memory back at the newest values: the running thread stopped. Per location with undone
     * stores, the location should still hold what the view showed (the value before the first
     * undone store, or the viewer's own later store); if it does not, the viewer wrote it
     * meanwhile without a buffered store (a CAS on a line it still held before the others'
     * request reached it, or a plain store), and that write takes its place in the chain. Then
     * the location gets the last pending store's value.
     */
    void showNewest() {
        SimThread x = viewer;
        viewer = null;
        for (int u = undone.size() - 1; u >= 0; u--) {
            Pending first = undone.get(u); // undone newest first: from the end, each location's earliest
            if (!first.isEarliestUndone(undone, u)) {
                continue;
            }
            int firstAt = pending.indexOf(first);
            Pending ownLater = null;
            Pending last = first;
            for (int i = firstAt + 1; i < pending.size(); i++) {
                Pending p = pending.get(i);
                if (p.sameLocation(first)) {
                    last = p;
                    if (p.owner == x) {
                        ownLater = p;
                    }
                }
            }
            Object now = first.accessors.read(first.receiver, first.index);
            Object shown = ownLater != null ? ownLater.newValue : first.oldValue;
            if (!same(now, shown)) {
                if (ownLater != null) {
                    ownLater.newValue = now; // a plain store after its own buffered one: the later wins
                    Pending next = firstFrom(ownLater, pending.indexOf(ownLater) + 1);
                    if (next != null) {
                        next.oldValue = now;
                    }
                } else {
                    first.oldValue = now; // before the undone stores' commits
                }
            }
            first.accessors.write(first.receiver, first.index, last.newValue);
        }
        undone.clear();
    }

    /**
     * Whether a location still holds what the view wrote there: the same reference, or the same
     * primitive value (boxed by the accessors). A guest object's own {@code equals} is never
     * called: it is guest code, and it must not run inside the engine's bookkeeping.
     */
    private static boolean same(Object a, Object b) {
        if (a == b) {
            return true;
        }
        // the accessors box primitives into the JDK's own classes (the boot loader's, never instrumented)
        return a != null && b != null && a.getClass() == b.getClass() && a.getClass().getClassLoader() == null
                && a.equals(b);
    }

    /** Every store that commits at or before {@code time} is seen by all from now on. */
    void commitUpTo(long time) {
        if (pending.isEmpty() || pending.get(0).commitAt > time) { // in commit order: the first commits first
            return;
        }
        SimThread x = viewer;
        if (x != null) {
            showNewest();
        }
        int committed = 0;
        while (committed < pending.size() && pending.get(committed).commitAt <= time) {
            committed++;
        }
        pending.subList(0, committed).clear(); // kept in commit order: the committed are a prefix
        if (x != null) {
            show(x);
        }
    }

    /** The end of a run: every store is seen. */
    void commitAll() {
        if (viewer != null) {
            showNewest();
        }
        pending.clear();
    }

    private Accessors accessors(VarHandle handle) {
        Accessors a = accessors.get(handle);
        if (a == null) {
            a = new Accessors(handle);
            accessors.put(handle, a);
        }
        return a;
    }

    /** One store in the buffer. */
    static final class Pending {
        final SimThread owner;
        final VarHandle handle;
        final Accessors accessors;
        final Object receiver;
        final int index;
        /** What others see until the store commits: the value before it, or a later write made under it. */
        Object oldValue;
        final long commitAt;
        Object newValue;

        Pending(SimThread owner, VarHandle handle, Accessors accessors, Object receiver, int index, Object oldValue,
                long commitAt) {
            this.owner = owner;
            this.handle = handle;
            this.accessors = accessors;
            this.receiver = receiver;
            this.index = index;
            this.oldValue = oldValue;
            this.commitAt = commitAt;
        }

        /** Whether no store undone before this one (in {@code undone}, newest first, above index {@code u}) has its location. */
        boolean isEarliestUndone(ArrayList<Pending> undone, int u) {
            for (int i = u + 1; i < undone.size(); i++) {
                if (undone.get(i).sameLocation(this)) {
                    return false;
                }
            }
            return true;
        }

        boolean sameLocation(Pending other) {
            return handle == other.handle && receiver == other.receiver && index == other.index;
        }
    }

    /** Plain get and set of a handle's location, as generic method handles. */
    static final class Accessors {
        private final int coordinates;
        private final MethodHandle get;
        private final MethodHandle set;

        Accessors(VarHandle handle) {
            this.coordinates = handle.coordinateTypes().size();
            this.get = handle.toMethodHandle(VarHandle.AccessMode.GET).asType(MethodType.genericMethodType(coordinates));
            this.set = handle.toMethodHandle(VarHandle.AccessMode.SET)
                    .asType(MethodType.genericMethodType(coordinates + 1).changeReturnType(void.class));
        }

        Object read(Object receiver, int index) {
            try {
                return switch (coordinates) {
                    case 0 -> (Object) get.invokeExact();
                    case 1 -> (Object) get.invokeExact(receiver);
                    default -> (Object) get.invokeExact(receiver, (Object) index);
                };
            } catch (RuntimeException | Error e) {
                throw e;
            } catch (Throwable e) {
                throw new IllegalStateException(e);
            }
        }

        void write(Object receiver, int index, Object value) {
            try {
                switch (coordinates) {
                    case 0 -> set.invokeExact(value);
                    case 1 -> set.invokeExact(receiver, value);
                    default -> set.invokeExact(receiver, (Object) index, value);
                }
            } catch (RuntimeException | Error e) {
                throw e;
            } catch (Throwable e) {
                throw new IllegalStateException(e);
            }
        }
    }
}
