package io.spinlab.sim.memory;

import io.spinlab.impl.lock.SpinLock;
import io.spinlab.model.machine.MachinePresets;
import io.spinlab.model.platform.Platform;
import io.spinlab.model.tuning.Tuning;
import io.spinlab.sim.engine.Simulation;
import io.spinlab.sim.trace.Activity;
import io.spinlab.sim.trace.ThreadMetrics;
import io.spinlab.sim.workload.AccessZoo;
import io.spinlab.sim.workload.SimulatedRun;
import io.spinlab.sim.workload.WorkloadRunner;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The instrumenting class loader: what it loads, what it leaves alone, and what its copies report. */
class GuestClassLoaderTest {

    private final GuestClassLoader loader = GuestClassLoader.shared(getClass().getClassLoader(),
            GuestClassLoader.DEFAULT_GUEST_PREFIXES);

    @Test
    void shouldDefineItsOwnCopyWhenClassIsAGuest() throws ClassNotFoundException {
        Class<?> guest = loader.loadClass(SpinLock.class.getName());

        assertThat(guest).isNotSameAs(SpinLock.class);
        assertThat(guest.getClassLoader()).isSameAs(loader);
        assertThat(guest.getName()).isEqualTo(SpinLock.class.getName());
        assertThat(loader.loadClass(SpinLock.class.getName())).isSameAs(guest);
    }

    @Test
    void shouldShareTheSeamAndTheEngineWhenClassIsNotAGuest() throws ClassNotFoundException {
        assertThat(loader.loadClass(Platform.class.getName())).isSameAs(Platform.class);
        assertThat(loader.loadClass(Simulation.class.getName())).isSameAs(Simulation.class);
        assertThat(loader.loadClass(MemoryModel.class.getName())).isSameAs(MemoryModel.class);
        assertThat(loader.isGuest("io.spinlab.impl.collections.ConcurrentQueue")).isTrue();
        assertThat(loader.isGuest("io.spinlab.sim.workload.MresPingPong")).isTrue();
        assertThat(loader.isGuest("io.spinlab.sim.engine.GuestHooks")).isFalse();
        assertThat(loader.isGuest("java.lang.Thread")).isFalse();
        assertThat(new GuestClassLoader(getClass().getClassLoader(), List.of("io.spinlab.")).isGuest(
                "io.spinlab.sim.memory.MemoryModel")).isFalse();
    }

    @Test
    void shouldDefineAndInitializeEveryProductionClassWhenInstrumented() throws Exception {
        List<String> names = classesBeside(SpinLock.class, "io/spinlab/impl/");
        long sites = 0;
        for (String name : names) {
            byte[] original = resource(name);
            sites += AccessInstrumenter.instrument(original, loader.layouts()).sites();
            Class<?> guest = Class.forName(name, true, loader);
            assertThat(guest.getClassLoader()).as(name).isSameAs(loader);
        }

        assertThat(names).hasSizeGreaterThan(40);
        assertThat(sites).isGreaterThan(200);
    }

    @Test
    void shouldLeaveProductionBytecodeUntouchedWhenItInstrumentsACopy() throws Exception {
        byte[] before = resource(SpinLock.class);
        loader.loadClass(SpinLock.class.getName());
        byte[] after = resource(SpinLock.class);
        AccessInstrumenter.Result copy = AccessInstrumenter.instrument(before, loader.layouts());

        assertThat(after).isEqualTo(before);
        assertThat(new String(before, StandardCharsets.ISO_8859_1)).doesNotContain("GuestHooks");
        assertThat(new String(copy.bytes(), StandardCharsets.ISO_8859_1)).contains("GuestHooks");
        assertThat(copy.fieldAccesses() + copy.varHandleAccesses()).isPositive();
        assertThat(SpinLock.class.getClassLoader()).isSameAs(getClass().getClassLoader());
    }

    @Test
    void shouldCountEveryVolatileAndVarHandleAccessWhenGuestCodeRuns() {
        SimulatedRun run = WorkloadRunner.simulate(AccessZoo.class, List.of(), Tuning.current(),
                Simulation.builder(MachinePresets.byName("skylake-i7-6700")).seed(1).memoryModel(true));

        long operations = run.result().operations();
        MemoryMetrics memory = run.simulation().memory().orElseThrow();
        assertThat(memory.reads()).isEqualTo(AccessZoo.FIELD_READS + AccessZoo.HANDLE_READS);
        assertThat(memory.writes()).isEqualTo(AccessZoo.HANDLE_WRITES);
        assertThat(memory.volatileWrites()).isEqualTo(AccessZoo.FIELD_VOLATILE_WRITES
                + AccessZoo.HANDLE_VOLATILE_WRITES);
        assertThat(memory.readModifyWrites()).isEqualTo(AccessZoo.HANDLE_READ_MODIFY_WRITES);
        assertThat(memory.accesses()).isEqualTo(operations);
        assertThat(memory.objects()).isEqualTo(3);
    }

    @Test
    void shouldRouteJdkSpinSleepParkAndClockCallsToTheSimulationWhenGuestCodeMakesThem() {
        SimulatedRun run = WorkloadRunner.simulate(AccessZoo.class, List.of(), Tuning.current(),
                Simulation.builder(MachinePresets.byName("skylake-i7-6700")).seed(1).memoryModel(true));

        run.result();
        ThreadMetrics main = run.simulation().metrics().threads().get(0);
        long sleepPicos = 2 * 1_060_000_000L;
        assertThat(main.picos(Activity.SPINNING)).isEqualTo(MachinePresets.byName("skylake-i7-6700").picosPerPause());
        assertThat(main.picos(Activity.YIELDING)).isPositive();
        assertThat(main.picos(Activity.SLEEPING)).isEqualTo(sleepPicos);
        assertThat(main.picos(Activity.PARKED)).isGreaterThanOrEqualTo(AccessZoo.PARK_NANOS * 1_000);
        assertThat(run.result().elapsedNanos()).isGreaterThan(sleepPicos / 1_000 + AccessZoo.PARK_NANOS);
        assertThat(run.result().platform()).isEqualTo("simulated(skylake-i7-6700, seed 1, memory model)");
        assertThat(run.simulation().reproduction()).endsWith(" memory=on");
    }

    @Test
    void shouldAskForClassAndArgumentsWhenMemoryModelIsOnAndGivenAnInstance() {
        Simulation.Builder builder = Simulation.builder(MachinePresets.byName("skylake-i7-6700")).memoryModel(true);

        assertThatThrownBy(() -> WorkloadRunner.simulate(new AccessZoo(), Tuning.current(), builder))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("class and constructor arguments");
        assertThatThrownBy(() -> WorkloadRunner.simulate(AccessZoo.class, List.of(1), Tuning.current(), builder))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("no public constructor");
    }

    private static byte[] resource(Class<?> type) throws IOException {
        return resource(type.getName());
    }

    private static byte[] resource(String className) throws IOException {
        String path = className.replace('.', '/') + ".class";
        try (InputStream in = GuestClassLoaderTest.class.getClassLoader().getResourceAsStream(path)) {
            return in.readAllBytes();
        }
    }

    /** Binary names of every class under {@code prefix} in the directory or jar that holds {@code anchor}. */
    private static List<String> classesBeside(Class<?> anchor, String prefix) throws Exception {
        Path root = Path.of(anchor.getProtectionDomain().getCodeSource().getLocation().toURI());
        List<String> names = new ArrayList<>();
        if (Files.isDirectory(root)) {
            try (Stream<Path> files = Files.walk(root.resolve(prefix))) {
                files.filter(f -> f.toString().endsWith(".class")).sorted()
                        .forEach(f -> names.add(binaryName(root.relativize(f).toString().replace('\\', '/'))));
            }
        } else {
            try (JarFile jar = new JarFile(root.toFile())) {
                jar.stream().map(JarEntry::getName).filter(n -> n.startsWith(prefix) && n.endsWith(".class"))
                        .sorted().forEach(n -> names.add(binaryName(n)));
            }
        }
        return names;
    }

    private static String binaryName(String path) {
        return path.substring(0, path.length() - ".class".length()).replace('/', '.');
    }
}
