package io.spinlab.sim.memory;

import io.spinlab.model.machine.MachineProfile;

import java.util.Arrays;
import java.util.IdentityHashMap;
import java.util.Objects;
import java.util.function.LongUnaryOperator;

/**
 * The simulator's cost model for shared memory: every instrumented access names an object, a
 * byte offset in it and an {@link AccessKind}; the model maps the location to a cache line,
 * keeps each line's coherence state, and answers what the access costs the accessing
 * processor in virtual time.
 *
 * <ul>
 *   <li><b>Lines.</b> Each object starts on a line of its own ({@code cacheLineBytes} of the
 *       machine); a field's line is its offset in the JVM-like layout of {@link FieldLayouts}
 *       (so padding classes keep padded fields apart), an array element's is
 *       {@code (header + index × element size) ÷ line size}.</li>
 *   <li><b>Caches.</b> One per physical core (SMT siblings share it): logical processor
 *       {@code p} is core {@code p ÷ k} for k logical processors per core, so siblings are
 *       numbered next to each other, as Windows numbers them and as the engine's scheduler
 *       places threads ({@code Scheduler.firstOfCore}). A line is exclusive to one core
 *       (MESI's E or M) or shared by a set of cores (S) or cached nowhere.</li>
 *   <li><b>Costs.</b> A hit adds nothing to what the instruction clock charges for the load or
 *       store itself (the engine charges every scheduling point at least one cycle). A read miss costs one
 *       transfer and shares the line (exclusive if no other core has it). A store or
 *       read-modify-write by a core without a copy of the line costs one transfer (fetch for
 *       ownership and invalidation of the other copies, in parallel); one by a core that shares
 *       the line with others (an upgrade: no data moves) costs {@code invalidationNs}; either
 *       leaves the line exclusive. A read-modify-write and a volatile store add
 *       {@code atomicOpNs}; a store without a fence adds nothing.</li>
 *   <li><b>Store buffer.</b> A store without a fence (plain, opaque or release mode: a plain
 *       {@code mov} on x86) goes into its logical processor's store buffer: the processor goes on
 *       after a hit, and the store completes in the background at the cost above, in program
 *       order after the processor's earlier stores (x86's TSO commits stores in order). A locked
 *       instruction (a read-modify-write, a volatile store's fence, {@link #fence}) first waits
 *       until the buffer has drained. A load is not held up by buffered stores, and a load of a
 *       line with the processor's own store pending hits (store-to-load forwarding). Other cores
 *       see a buffered store when it completes: the line is busy until then, and the engine
 *       shows its value to other threads only from then on ({@code engine.BufferedStores}). The buffer's
 *       capacity (36 to 56 entries on the presets' cores) is not modelled: guest code makes a few
 *       stores between two locked instructions, never dozens.</li>
 *   <li><b>Topology.</b> A transfer costs {@code cacheLineTransferNs} within a socket and
 *       {@code crossSocketTransferNs} between sockets ({@link MachineProfile#socketOfCore}). A
 *       read miss is served by the nearest copy: the owner, or a sharer on the reader's socket if
 *       there is one. A fetch for ownership waits for the farthest copy it invalidates, and so
 *       does an upgrade, at {@code invalidationNs} times the ratio of the two transfers when that
 *       copy is on another socket. A line no core holds comes at the within-socket cost (memory is
 *       not modelled apart).</li>
 *   <li><b>Serialization.</b> An exclusive access holds its line until it completes; any other
 *       access to the line that needs it from elsewhere waits for that first, so
 *       read-modify-writes on one line from many cores serialize, one transfer plus one atomic
 *       operation each.</li>
 *   <li><b>Handover.</b> A core keeps a line it holds until another core's request for it
 *       reaches it, half-way through the request's transfer (or, in a run with noise, at a point
 *       drawn uniformly over the whole transfer for each request: {@link #MemoryModel(MachineProfile,
 *       LongUnaryOperator)}): meanwhile its own accesses that
 *       need no more than it held (any access by the owner, a read by a sharer) hit. So an owner
 *       finishes a few local operations while a remote request is on its way, and the
 *       requester's access, which the engine performs when its transfer completes, sees
 *       them.</li>
 *   <li><b>Queued requests.</b> Requests for a line are served one at a time, as a directory
 *       serializes them: a request made while the line is busy with another core's access
 *       waits until that access completes, and only then sets out for its new holder, reaching
 *       it one leg (half a transfer, or the drawn point) later. So under contention the line
 *       passes from core to core, and each keeps it for that leg after its own access before
 *       the next request arrives.</li>
 * </ul>
 *
 * <p>Deterministic: a pure function of the sequence of calls. Not thread-safe; one per run.
 */
public final class MemoryModel {
    /*
     * Implementation notes
     *
     * Identity of locations: objects are looked up in an IdentityHashMap, which is only ever
     * consulted, never iterated, so the identity hash codes it uses internally cannot reach a
     * decision; an object's id is the order of its first touch in the run, which follows the
     * engine's (time, seq) event order and is therefore deterministic. A one-entry cache
     * (the last object) saves the lookup in loops on one object. Objects stay referenced until
     * the run ends; a run that touches millions of short-lived objects pays that in heap.
     *
     * Why each object on its own line: a real JVM packs objects in allocation order inside
     * thread-local buffers, which the simulator cannot reproduce without modelling the heap.
     * Aligning every object to a line models false sharing inside an object (fields, array
     * elements) exactly and ignores false sharing between neighbouring objects. Padding
     * classes still matter: they keep hot fields of one object on different lines.
     *
     * Timing: the engine charges the cost returned here to the accessing thread and performs
     * the access when that time has passed; the line's recorded state changes at the request, and
     * `busyUntil` records when an exclusive access completes, so a later request that needs
     * the line from elsewhere starts no earlier. Reads share a line and do not extend
     * busyUntil: concurrent read misses overlap, as they do on a real interconnect.
     *
     * Handover: on hardware the holder of a line loses it when the request's snoop reaches it,
     * somewhere inside the requester's miss latency; until then it reads and writes its copy.
     * Before the handover rule the model took the line away at the request itself, so an owner
     * that touched its line again a few nanoseconds after a remote request paid a whole transfer
     * back and queued behind the requester: every contended operation was a ping-pong. Each
     * request that moves the line opens a window (Line.beginHandover) in which the cores that
     * held it just before the request keep what they held, until the request reaches them. A
     * transfer is two legs of one crossing each: the request (through the line's home agent) to
     * the holder, then the data (or the invalidation's acknowledgement) back; the profile's
     * figure is a measured one-way core-to-core latency, which covers both and does not split
     * them, so the rule puts the holder's loss at the midpoint, half-way between the two bounds:
     * at the request (the old rule) and at the data's arrival (tried first: with a whole transfer
     * of grace the releaser of a tight enter/exit loop re-took its lock before any waiter's read
     * could land, on every processor count; simulator/SIMULATOR-RESULTS.md). A fixed point made
     * some rows turn on whether a retry a few nanoseconds long starts before it (the Haswell
     * CountdownEvent rows moved from 19,607 to 6,636 operations/ms with the instruction clock at
     * 0.05 against 0.2 cycles per bytecode, simulator/EXPERIMENTS.md): a knife edge that hardware
     * does not have, since where the holder sits relative to the line's home agent (an address
     * hash on Intel's ring and mesh parts) and the traffic on the way vary from line to line and
     * from one request to the next. So a run with noise draws each request's leg uniformly
     * between the two bounds (the handoverLeg function, fed by the engine's noise stream); the
     * mean stays the midpoint, and a run without noise keeps the midpoint itself. The two bounds
     * are the model's; the uniform shape between them is an assumption, not a measurement (no
     * documentation of the parts splits a transfer). The engine performs
     * the requester's access when its whole transfer completes, after the window, so whatever
     * the old holder wrote inside the window is what the requester sees: nothing is lost or
     * hidden.
     *
     * Queued requests: a directory handles one transaction per line at a time; a request that
     * finds the line in transition waits at the home until the transaction ahead of it completes
     * (Sorin, Hill and Wood, "A Primer on Memory Consistency and Cache Coherence", 2nd ed., 2020,
     * ch. 8: a directory keeps a block in a transient state until the transaction completes and
     * stalls other requests for it meanwhile). So a request
     * made while the line is busy sets out for its holder when the busy access ends
     * (`busyUntil`) and reaches it half a transfer later, reads and ownership requests alike,
     * and its window keeps the holder it reaches (the requester ahead of it, whose access has
     * just completed) holding the line until then. The windows of queued requests follow one
     * another in request order (a ring per line); an access is judged by the oldest window still
     * open at its time. Before this rule a second request during a window left the window as it
     * was, and a read queued behind an atomic was answered the instant the atomic ended: a core
     * that won a contended line lost it as soon as its own access completed, so two threads in a
     * read-then-CAS loop on two cores alternated one success and one failure per transfer
     * (453 ns per success on this host's profile, where the host itself takes 17–18 ns, with
     * about 14 successes per change of owner; simulator/SIMULATOR-RESULTS.md).
     *
     * Upgrades: until 2026-12-07 a store by a core that shared its line cost a whole transfer, as if
     * the data had to come back, so a hand-over to a thread spinning on reads (the writer's store,
     * then the reader's miss) cost two transfers, twice the CAS ping-pong the profiles' transfer
     * figure is measured with. The two-line read/write ping-pong of jcurl's core_latency takes 1.3 to
     * 1.7 times its CAS ping-pong on four Intel parts (MachineProfile's invalidationNs cites them),
     * and calibrate's hand-over check showed the host's reading hand-over at the cost of one
     * transfer while the model charged two. An upgrade moves no data: the request goes to the other
     * copies and their acknowledgements come back, so it is priced apart, from those measurements.
     *
     * Why not a full MESI/MOESI protocol with write-backs and directories: the published
     * effects this model must show (CAS contention, false sharing, a spinning reader that
     * hits until the line is written) need only who holds the line and whether exclusively.
     */

    /**
     * What a hit adds to the instruction clock's charge for its load or store: nothing (the engine
     * still charges every scheduling point at least one cycle, so a loop of hits moves time on even at
     * zero cycles per bytecode). Until 2026-12-07 a hit cost an L1 load's latency,
     * 4 cycles, on top of the bytecode that made it: on x86 a volatile load is the same {@code mov}
     * as a plain field's load, and the cycles per bytecode of the instruction clock are measured on
     * code whose loads follow one another through fields (a slot from an array, then its fields:
     * {@code GuestCodeThroughput}), so a load's time is already in the bytecode's. Only volatile
     * and {@code VarHandle} accesses reach this model, so the extra 4 cycles made code slower the
     * more of its fields were volatile: {@code calibrate}'s single-threaded loops of the primitives
     * ran 1.3 to 2.4 times their real time on this host, SemaphoreSlim's (about 40 volatile
     * accesses an operation) the slowest (simulator/SIMULATOR-RESULTS.md).
     */
    public static final long HIT_PICOS = 0;
    /** Bytes before the first element of an array: 8 mark + 4 compressed class + 4 length. */
    public static final int ARRAY_BASE_BYTES = 16;

    private final MachineProfile machine;
    private final int cores;
    private final int threadsPerCore;
    private final int sharerWords;
    private final int lineShift;
    private final long hitPicos;
    private final long transferPicos;
    /** A transfer between sockets; equal to transferPicos on a one-socket part. */
    private final long crossSocketPicos;
    /** The socket of each core; null on a one-socket part. */
    private final int[] socketOfCore;
    /** Per socket, its cores as sharer bits (a Line's sharers layout); null on a one-socket part. */
    private final long[][] coresOfSocket;
    private final long atomicPicos;
    /** An upgrade within a socket: a store or RMW by a sharer, the other copies invalidated. */
    private final long invalidationPicos;
    /** An upgrade that invalidates a copy on another socket: scaled as a transfer between sockets is. */
    private final long crossSocketInvalidationPicos;
    /** The request's leg to the holder for a transfer of the argument: half of it, or a seeded draw. */
    private final LongUnaryOperator handoverLeg;
    /** Per logical processor: when the last store in its store buffer completes. */
    private final long[] storesDoneAt;
    private final IdentityHashMap<Object, ObjectLines> objects = new IdentityHashMap<>();
    private Object lastObject;
    private ObjectLines lastLines;
    private int lastObjectId = -1;
    private long lastLineIndex = -1;

    private long reads;
    private long writes;
    private long volatileWrites;
    private long readModifyWrites;
    private long hits;
    private long transfers;
    private long stallPicos;
    private long lineCount;

    /** A model of {@code machine}'s caches, all lines uncached; every request reaches the holder half-way through its transfer. */
    public MemoryModel(MachineProfile machine) {
        this(machine, MemoryModel::midpoint);
    }

    /**
     * A model of {@code machine}'s caches, all lines uncached, in which a request that moves a
     * line reaches its holder {@code handoverLeg.applyAsLong(transfer)} picoseconds after it
     * sets out: the function must answer within {@code [0, transfer]} (checked), and be
     * deterministic for the run to be (the engine draws from the run's noise stream).
     */
    public MemoryModel(MachineProfile machine, LongUnaryOperator handoverLeg) {
        this.handoverLeg = Objects.requireNonNull(handoverLeg, "handoverLeg");
        this.machine = Objects.requireNonNull(machine, "machine");
        this.cores = machine.physicalCores();
        this.threadsPerCore = machine.smtThreadsPerCore();
        this.sharerWords = (cores + Long.SIZE - 1) / Long.SIZE;
        this.lineShift = Integer.numberOfTrailingZeros(machine.cacheLineBytes());
        this.hitPicos = HIT_PICOS;
        this.transferPicos = MachineProfile.nanosToPicos(machine.cacheLineTransferNs());
        if (machine.sockets() > 1) {
            this.crossSocketPicos = MachineProfile.nanosToPicos(machine.crossSocketTransferNs());
            this.socketOfCore = new int[cores];
            this.coresOfSocket = new long[machine.sockets()][sharerWords];
            for (int c = 0; c < cores; c++) {
                socketOfCore[c] = machine.socketOfCore(c);
                coresOfSocket[socketOfCore[c]][c >>> 6] |= 1L << c;
            }
        } else {
            this.crossSocketPicos = transferPicos;
            this.socketOfCore = null;
            this.coresOfSocket = null;
        }
        this.atomicPicos = MachineProfile.nanosToPicos(machine.atomicOpNs());
        this.invalidationPicos = MachineProfile.nanosToPicos(machine.invalidationNs());
        this.crossSocketInvalidationPicos = transferPicos == 0 ? invalidationPicos
                : Math.round((double) invalidationPicos * crossSocketPicos / transferPicos);
        this.storesDoneAt = new long[machine.logicalProcessors()];
    }

    public MachineProfile machine() {
        return machine;
    }

    /** The core (cache) of logical processor {@code processor}: {@code processor ÷ smtThreadsPerCore}. */
    public int coreOf(int processor) {
        return processor / threadsPerCore;
    }

    public long hitPicos() {
        return hitPicos;
    }

    public long transferPicos() {
        return transferPicos;
    }

    public long atomicPicos() {
        return atomicPicos;
    }

    /** A transfer between two sockets, ps; the within-socket {@link #transferPicos()} on a one-socket part. */
    public long crossSocketPicos() {
        return crossSocketPicos;
    }

    /**
     * Costs one access by logical processor {@code processor} at {@code nowPicos} to byte
     * {@code offset} of {@code object} (a {@link Class} stands for its static fields) and
     * updates the line's state.
     *
     * @return the access's cost in picoseconds, stall included; 0 for a hit
     */
    public long access(int processor, Object object, long offset, AccessKind kind, long nowPicos) {
        Objects.requireNonNull(object, "object");
        if (offset < 0) {
            throw new IllegalArgumentException("offset = " + offset + " is negative");
        }
        ObjectLines target = linesOf(object);
        long index = offset >>> lineShift;
        lastLineIndex = index;
        Line line = target.line(index, this);
        int core = coreOf(processor);
        if (kind.locked()) {
            long drain = drainWait(processor, nowPicos);
            return drain + exclusiveAccess(line, core, kind, nowPicos + drain);
        }
        line.expire(nowPicos);
        if (line.heldBefore(nowPicos, core, kind != AccessKind.READ)) {
            long cost = hitBeforeHandover(kind);
            if (kind == AccessKind.WRITE) {
                storesDoneAt[processor] = Math.max(storesDoneAt[processor], nowPicos + cost);
            }
            return cost;
        }
        if (kind == AccessKind.READ) {
            return read(line, core, nowPicos);
        }
        writes++;
        return buffered(line, processor, core, nowPicos);
    }

    /** A locked instruction at {@code at}, after its processor's store buffer drained: the line exclusive, then the atomic. */
    private long exclusiveAccess(Line line, int core, AccessKind kind, long at) {
        if (line.heldBefore(at, core, true)) {
            return hitBeforeHandover(kind);
        }
        if (kind == AccessKind.VOLATILE_WRITE) {
            volatileWrites++;
        } else {
            readModifyWrites++;
        }
        return exclusive(line, core, at, atomicPicos, true);
    }

    /**
     * Costs a full fence by logical processor {@code processor} at {@code nowPicos}
     * ({@code VarHandle.fullFence}, a locked instruction on x86 without a line of its own): the
     * wait for its store buffer to drain, plus {@code atomicOpNs}.
     */
    public long fence(int processor, long nowPicos) {
        return drainWait(processor, nowPicos) + atomicPicos;
    }

    /** When logical processor {@code processor}'s buffered stores have all completed (0 if it never stored). */
    public long storesDoneAt(int processor) {
        return storesDoneAt[processor];
    }

    /** The id (first-touch order, from 0) of the object of the last {@link #access}. */
    public int lastObjectId() {
        return lastObjectId;
    }

    /** The line index inside its object of the last {@link #access}. */
    public long lastLineIndex() {
        return lastLineIndex;
    }

    /** The counts so far. */
    public MemoryMetrics metrics() {
        return new MemoryMetrics(reads, writes, volatileWrites, readModifyWrites, hits, transfers, stallPicos,
                objects.size(), lineCount);
    }

    /**
     * An access by a core that held the line, with what the access needs, before another core's
     * request still in flight: it completes locally, as on hardware, where the holder keeps the
     * line until the request reaches it; the state the request leaves is unchanged.
     */
    private long hitBeforeHandover(AccessKind kind) {
        hits++;
        switch (kind) {
            case READ -> {
                reads++;
                return hitPicos;
            }
            case WRITE -> {
                writes++;
                return hitPicos;
            }
            case VOLATILE_WRITE -> volatileWrites++;
            case READ_MODIFY_WRITE -> readModifyWrites++;
        }
        return atomicPicos;
    }

    private long read(Line line, int core, long now) {
        reads++;
        if (line.owner == core || line.isSharer(core)) {
            hits++;
            return hitPicos;
        }
        transfers++;
        long transfer = readTransferPicos(line, core);
        // a read queued behind a busy line sets out when the busy access ends (see Queued requests)
        long wait = Math.max(now, line.busyUntil) - now;
        stallPicos += wait;
        line.beginHandover(now + wait + leg(transfer));
        if (line.owner >= 0) {
            line.addSharer(line.owner);
            line.owner = Line.NONE;
            line.addSharer(core);
        } else if (line.hasNoSharer()) {
            line.owner = core;
        } else {
            line.addSharer(core);
        }
        return wait + transfer;
    }

    /** Half of {@code transfer}: the holder's loss at the midpoint of the request's transfer. */
    public static long midpoint(long transfer) {
        return transfer / 2;
    }

    /** The request's leg to the holder in a transfer of {@code transfer} picoseconds. */
    private long leg(long transfer) {
        long leg = handoverLeg.applyAsLong(transfer);
        if (leg < 0 || leg > transfer) {
            throw new IllegalStateException("handover leg " + leg + " ps outside [0, " + transfer + "] ps");
        }
        return leg;
    }

    /** What a read miss by {@code core} costs: from the owner, or the nearest sharer (before the line's state changes). */
    private long readTransferPicos(Line line, int core) {
        if (socketOfCore == null) {
            return transferPicos;
        }
        if (line.owner >= 0 || line.hasNoSharer()) {
            return fromOwner(line, core);
        }
        return line.anySharer(coresOfSocket[socketOfCore[core]], true) ? transferPicos : crossSocketPicos;
    }

    /** What a fetch for ownership by {@code core} costs: the farthest copy it must take or invalidate. */
    private long ownershipTransferPicos(Line line, int core) {
        if (socketOfCore == null) {
            return transferPicos;
        }
        if (line.owner >= 0) {
            return fromOwner(line, core);
        }
        return line.anySharer(coresOfSocket[socketOfCore[core]], false) ? crossSocketPicos : transferPicos;
    }

    /** What an upgrade by {@code core}, a sharer of the line, costs: the farthest other copy it invalidates. */
    private long invalidationPicos(Line line, int core) {
        if (socketOfCore == null) {
            return invalidationPicos;
        }
        return line.anySharer(coresOfSocket[socketOfCore[core]], false) ? crossSocketInvalidationPicos
                : invalidationPicos;
    }

    /** From the line's owner, or at the within-socket cost when no core holds it (memory). */
    private long fromOwner(Line line, int core) {
        return line.owner < 0 || socketOfCore[line.owner] == socketOfCore[core] ? transferPicos : crossSocketPicos;
    }

    /** A store without a fence: a hit for the processor; the store itself completes in the background, in order. */
    private long buffered(Line line, int processor, int core, long now) {
        long done = Math.max(now + exclusive(line, core, now, hitPicos, false), storesDoneAt[processor]);
        line.busyUntil = done;
        storesDoneAt[processor] = done;
        return hitPicos;
    }

    /**
     * How long a locked instruction of {@code processor} at {@code now} waits for its store buffer
     * to drain (a stall; also the system calls that take a lock, such as an unpark).
     */
    public long drainWait(int processor, long now) {
        long wait = Math.max(0, storesDoneAt[processor] - now);
        stallPicos += wait;
        return wait;
    }

    /**
     * Takes the line exclusive for {@code core} from {@code now}: any wait for another core's
     * exclusive access (counted as a stall when {@code stalls}: a buffered store waits in the
     * background), a transfer unless the core already has it alone, and {@code basePicos}; the
     * line is busy until then.
     */
    private long exclusive(Line line, int core, long now, long basePicos, boolean stalls) {
        long wait = Math.max(0, line.busyUntil - now);
        if (stalls) {
            stallPicos += wait;
        }
        long transfer;
        if (line.owner == core || (line.owner == Line.NONE && line.isOnlySharer(core))) {
            hits++;
            transfer = 0;
        } else if (line.owner == Line.NONE && line.isSharer(core)) {
            transfers++; // an upgrade: the core has the data, the other copies are invalidated
            transfer = invalidationPicos(line, core);
            line.beginHandover(now + wait + leg(transfer));
        } else {
            transfers++;
            transfer = ownershipTransferPicos(line, core);
            line.beginHandover(now + wait + leg(transfer)); // sets out when the line is free, then its leg
        }
        line.clearSharers();
        line.owner = core;
        long cost = wait + transfer + basePicos;
        line.busyUntil = now + cost;
        return cost;
    }

    private ObjectLines linesOf(Object object) {
        if (object == lastObject) {
            lastObjectId = lastLines.id;
            return lastLines;
        }
        ObjectLines found = objects.get(object);
        if (found == null) {
            found = new ObjectLines(objects.size());
            objects.put(object, found);
        }
        lastObject = object;
        lastLines = found;
        lastObjectId = found.id;
        return found;
    }

    Line newLine() {
        lineCount++;
        return new Line(sharerWords);
    }

    @Override
    public String toString() {
        return "MemoryModel[" + machine.name() + ": " + cores + " caches, " + machine.cacheLineBytes()
                + "-byte lines, hit=" + hitPicos + "ps, transfer=" + transferPicos + "ps, atomic=" + atomicPicos
                + "ps]";
    }

    /** The lines of one object, created on first touch. */
    static final class ObjectLines {
        private static final Line[] NO_LINES = new Line[0];

        final int id;
        private Line[] lines = NO_LINES;

        ObjectLines(int id) {
            this.id = id;
        }

        Line line(long index, MemoryModel model) {
            if (index >= lines.length) {
                if (index >= Integer.MAX_VALUE - 8) {
                    throw new IllegalArgumentException("line index " + index + " is out of range");
                }
                long grown = Math.max(index + 1, Math.min(lines.length * 2L, Integer.MAX_VALUE - 8));
                lines = Arrays.copyOf(lines, (int) grown);
            }
            Line line = lines[(int) index];
            if (line == null) {
                line = model.newLine();
                lines[(int) index] = line;
            }
            return line;
        }
    }

    /** One cache line's coherence state. */
    static final class Line {
        static final int NONE = -1;

        /** The core holding the line exclusively (E/M), or NONE. */
        int owner = NONE;
        /** Cores holding a shared copy (S), one bit each; empty while owned. */
        final long[] sharers;
        /** When the last exclusive access to the line completes. */
        long busyUntil;
        /*
         * Handover windows, oldest first, in a ring: one per request that moved the line while
         * some core held it. Window i keeps the cores that held the line just before that request
         * (windowOwner, or the sharers in windowSharers) holding it until the request reaches them
         * (windowEnd). Allocated at the first handover.
         */
        private int windowHead;
        private int windowCount;
        private int[] windowOwner;
        private long[] windowEnd;
        private long[] windowSharers;

        Line(int words) {
            this.sharers = new long[words];
        }

        /**
         * A request that moves the line is made now and reaches the present holders at
         * {@code reached}: they keep what they hold until then. Requests queue: a request made
         * while an earlier one is still on its way reaches the earlier requester, which keeps the
         * line from its own access until this request reaches it.
         */
        void beginHandover(long reached) {
            if (owner == NONE && hasNoSharer()) {
                return; // cached nowhere: nobody to keep it
            }
            int words = sharers.length;
            if (windowOwner == null) {
                windowOwner = new int[2];
                windowEnd = new long[2];
                windowSharers = new long[2 * words];
            } else if (windowCount == windowOwner.length) {
                grow(words);
            }
            int slot = (windowHead + windowCount) % windowOwner.length;
            windowOwner[slot] = owner;
            windowEnd[slot] = reached;
            System.arraycopy(sharers, 0, windowSharers, slot * words, words);
            windowCount++;
        }

        /** Drops the windows whose request reached its holders at or before {@code now}. */
        void expire(long now) {
            while (windowCount > 0 && windowEnd[windowHead] <= now) {
                windowHead = (windowHead + 1) % windowOwner.length;
                windowCount--;
            }
        }

        /**
         * Whether {@code core} still holds the line at {@code at} by the oldest window open then:
         * owned it before that request, or shared it for a read ({@code exclusive} false).
         */
        boolean heldBefore(long at, int core, boolean exclusive) {
            for (int i = 0; i < windowCount; i++) {
                int slot = (windowHead + i) % windowOwner.length;
                if (windowEnd[slot] > at) {
                    int held = windowOwner[slot];
                    if (held == core) {
                        return true;
                    }
                    return !exclusive && held == NONE
                            && (windowSharers[slot * sharers.length + (core >>> 6)] & (1L << core)) != 0;
                }
            }
            return false;
        }

        private void grow(int words) {
            int capacity = windowOwner.length;
            int[] owners = new int[capacity * 2];
            long[] ends = new long[capacity * 2];
            long[] sharerWords = new long[capacity * 2 * words];
            for (int i = 0; i < windowCount; i++) {
                int slot = (windowHead + i) % capacity;
                owners[i] = windowOwner[slot];
                ends[i] = windowEnd[slot];
                System.arraycopy(windowSharers, slot * words, sharerWords, i * words, words);
            }
            windowOwner = owners;
            windowEnd = ends;
            windowSharers = sharerWords;
            windowHead = 0;
        }

        boolean isSharer(int core) {
            return (sharers[core >>> 6] & (1L << core)) != 0;
        }

        void addSharer(int core) {
            sharers[core >>> 6] |= 1L << core;
        }

        boolean hasNoSharer() {
            for (long word : sharers) {
                if (word != 0) {
                    return false;
                }
            }
            return true;
        }

        boolean isOnlySharer(int core) {
            for (int w = 0; w < sharers.length; w++) {
                long expected = w == core >>> 6 ? 1L << core : 0;
                if (sharers[w] != expected) {
                    return false;
                }
            }
            return true;
        }

        /**
         * Whether a sharer is among the cores of {@code socketCores} (one socket's cores as sharer
         * bits; {@code onSocket}) or outside them ({@code !onSocket}).
         */
        boolean anySharer(long[] socketCores, boolean onSocket) {
            for (int w = 0; w < sharers.length; w++) {
                long mask = onSocket ? socketCores[w] : ~socketCores[w];
                if ((sharers[w] & mask) != 0) {
                    return true;
                }
            }
            return false;
        }

        void clearSharers() {
            Arrays.fill(sharers, 0);
        }
    }
}
