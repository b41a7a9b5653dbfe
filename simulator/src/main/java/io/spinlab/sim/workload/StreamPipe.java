package io.spinlab.sim.workload;

import io.spinlab.model.platform.Platform;

/**
 * A byte stream between two threads through a fixed kernel buffer, as a pipe or a local
 * socket carries a trace from the traced process to the process that reads it: a write blocks
 * while the buffer is full and returns once all its bytes are in it; a read blocks while the
 * buffer is empty and takes what is there, up to the reader's own buffer. The bytes are copied
 * in and out (the kernel's two copies, charged per byte as {@code System.arraycopy} is); their
 * values are not kept, only their count.
 *
 * <p>One writing thread and one reading thread. {@link #close} (by the writer) ends the
 * stream: reads then return what is left, and 0 once it is empty.
 */
final class StreamPipe {
    /*
     * Implementation notes
     *
     * Waiting: a side that must wait announces itself in a volatile field and checks the other
     * side's counter once more before it parks; the other side changes its counter and then
     * reads the announcement. All four accesses are volatile, so totally ordered: one of the two
     * sides sees the other, and no wake-up is lost. The waker pays an unpark, as a write to a
     * pipe with a blocked reader wakes it in the kernel. A park may return early (a stale permit,
     * a spurious wake-up), so both loops check again.
     *
     * Not modelled: each read's and write's system-call entry and exit (a fraction of a
     * microsecond, beside copies of kilobytes), and a kernel buffer made of pages or mbufs
     * rather than one count of bytes.
     */

    private final Platform platform;
    private final int capacity;
    /** Stands for the kernel's buffer: what is copied in and out; only the copies' lengths matter. */
    private final byte[] kernelBuffer;
    private volatile long written;
    private volatile long read;
    private volatile boolean closed;
    private volatile Thread waitingWriter;
    private volatile Thread waitingReader;

    /** A stream through a kernel buffer of {@code capacity} bytes (at least 1). */
    StreamPipe(Platform platform, int capacity) {
        if (capacity < 1) {
            throw new IllegalArgumentException("stream capacity = " + capacity + " bytes; allowed 1 or more");
        }
        this.platform = platform;
        this.capacity = capacity;
        this.kernelBuffer = new byte[capacity];
    }

    /** Writes {@code length} bytes of {@code data} from {@code offset}; blocks while the buffer is full. */
    void write(byte[] data, int offset, int length) {
        if (closed) {
            throw new IllegalStateException("write to a closed stream");
        }
        int done = 0;
        while (done < length) {
            long w = written;
            int room = (int) (capacity - (w - read));
            if (room > 0) {
                int n = Math.min(room, length - done);
                System.arraycopy(data, offset + done, kernelBuffer, 0, n);
                written = w + n;
                done += n;
                Thread reader = waitingReader;
                if (reader != null) {
                    platform.unpark(reader);
                }
                continue;
            }
            waitingWriter = Thread.currentThread();
            if (capacity - (written - read) <= 0) {
                platform.park(this);
            }
            waitingWriter = null;
        }
    }

    /**
     * Reads up to {@code max} bytes (at most {@code into.length}) into {@code into}; blocks while
     * the buffer is empty and the stream open.
     *
     * @return the bytes read; 0 only once the stream is closed and empty
     */
    int read(byte[] into, int max) {
        int limit = Math.min(max, into.length);
        for (;;) {
            long r = read;
            int available = (int) (written - r);
            if (available > 0) {
                int n = Math.min(available, limit);
                System.arraycopy(kernelBuffer, 0, into, 0, n);
                read = r + n;
                Thread writer = waitingWriter;
                if (writer != null) {
                    platform.unpark(writer);
                }
                return n;
            }
            if (closed) {
                if (written - read > 0) {
                    continue; // the last write landed between the two reads above
                }
                return 0;
            }
            waitingReader = Thread.currentThread();
            if (written - read <= 0 && !closed) {
                platform.park(this);
            }
            waitingReader = null;
        }
    }

    /** Ends the stream; the reader gets what is left, then 0. Call from the writer. */
    void close() {
        closed = true;
        Thread reader = waitingReader;
        if (reader != null) {
            platform.unpark(reader);
        }
    }

    /** Bytes written so far. */
    long bytesWritten() {
        return written;
    }
}
