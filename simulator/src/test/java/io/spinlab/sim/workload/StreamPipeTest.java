package io.spinlab.sim.workload;

import io.spinlab.impl.platform.HardwarePlatform;
import io.spinlab.model.machine.MachinePresets;
import io.spinlab.sim.engine.Simulation;
import io.spinlab.sim.engine.SimulationResult;
import io.spinlab.sim.trace.Activity;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The stream between the traced process and the reading one: blocking, bounded, nothing lost, an end. */
class StreamPipeTest {

    @Test
    void shouldBlockTheWriterWhileTheBufferIsFullAndDeliverEveryByteInReadsOfAtMostTheReadersBuffer() {
        Simulation sim = Simulation.builder(MachinePresets.byName("skylake-i7-6700")).seed(1).build();
        StreamPipe pipe = new StreamPipe(sim.platform(), 4_096);
        List<Integer> reads = new ArrayList<>();
        sim.startThread("writer", () -> {
            pipe.write(new byte[10_000], 0, 10_000);
            pipe.write(new byte[500], 0, 500);
            pipe.close();
        });
        sim.startThread("reader", () -> {
            byte[] buffer = new byte[3_000];
            int n;
            while ((n = pipe.read(buffer, buffer.length)) > 0) {
                reads.add(n);
                sim.platform().sleep(10_000); // a slow reader: the writer fills the buffer meanwhile
            }
            reads.add(n);
        });

        SimulationResult result = sim.run().requireCompleted();

        assertThat(reads.getLast()).as("0 once closed and empty").isZero();
        assertThat(reads.subList(0, reads.size() - 1)).allSatisfy(n -> assertThat(n).isBetween(1, 3_000));
        assertThat(reads.stream().mapToInt(Integer::intValue).sum()).isEqualTo(10_500);
        assertThat(pipe.bytesWritten()).isEqualTo(10_500);
        assertThat(result.metrics().thread("writer").picos(Activity.PARKED))
                .as("the writer waited for room").isPositive();
    }

    @Test
    void shouldCarryEveryByteBetweenRealThreadsWithoutLosingAWakeUp() throws InterruptedException {
        StreamPipe pipe = new StreamPipe(HardwarePlatform.INSTANCE, 8 * 1024);
        long[] received = new long[1];
        Thread reader = new Thread(() -> {
            byte[] buffer = new byte[81_920];
            int n;
            while ((n = pipe.read(buffer, buffer.length)) > 0) {
                received[0] += n;
            }
        });
        reader.start();
        byte[] block = new byte[100 * 1024];
        for (int i = 0; i < 200; i++) {
            pipe.write(block, 0, block.length - i);
        }
        pipe.close();
        reader.join(30_000);

        assertThat(reader.isAlive()).as("the reader saw the end").isFalse();
        long sent = 0;
        for (int i = 0; i < 200; i++) {
            sent += block.length - i;
        }
        assertThat(received[0]).isEqualTo(sent).isEqualTo(pipe.bytesWritten());
    }

    @Test
    void shouldRejectABufferOfNoBytesAndAWriteAfterTheEnd() {
        assertThatThrownBy(() -> new StreamPipe(HardwarePlatform.INSTANCE, 0))
                .isInstanceOf(IllegalArgumentException.class).hasMessage("stream capacity = 0 bytes; allowed 1 or more");
        StreamPipe pipe = new StreamPipe(HardwarePlatform.INSTANCE, 16);
        pipe.close();
        assertThatThrownBy(() -> pipe.write(new byte[1], 0, 1)).isInstanceOf(IllegalStateException.class);
        assertThat(pipe.read(new byte[4], 4)).isZero();
    }
}
