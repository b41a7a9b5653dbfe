package io.spinlab.junit;

import org.junit.jupiter.api.Test;
import org.junit.platform.engine.TestExecutionResult;
import org.junit.platform.engine.reporting.ReportEntry;
import org.junit.platform.testkit.engine.EngineTestKit;
import org.junit.platform.testkit.engine.Event;
import org.junit.platform.testkit.engine.Events;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectMethod;

/**
 * {@link SimulationTest} through JUnit itself: EngineTestKit runs the fixtures of
 * {@code io.spinlab.junitfixtures.LockFixtures}, and these tests check the invocations, their
 * names, the failure report and the files it leaves.
 */
class SimulationExtensionTest {

    private static final String FIXTURES = "io.spinlab.junitfixtures.LockFixtures";

    private static Events run(String method) {
        return EngineTestKit.engine("junit-jupiter")
                .selectors(selectMethod(FIXTURES + "#" + method + "(io.spinlab.junit.Sim)"))
                .execute()
                .allEvents();
    }

    private static Throwable failureOf(Events events) {
        List<Event> failed = events.failed().list();
        assertThat(failed).as("failed events").hasSize(1);
        return failed.getFirst().getPayload(TestExecutionResult.class).orElseThrow().getThrowable().orElseThrow();
    }

    private static List<String> invocationNames(Events events) {
        return events.started().list().stream().filter(e -> e.getTestDescriptor().isTest())
                .map(e -> e.getTestDescriptor().getDisplayName()).toList();
    }

    @Test
    void shouldRunOneInvocationPerMachineAndSeedWhenTheLockIsCorrect() {
        Events events = run("ttasLockStaysExclusive");

        assertThat(invocationNames(events)).containsExactly("skylake-i7-6700, seed 1", "skylake-i7-6700, seed 2",
                "sandybridge-e5-1650 pauseCycles=300, seed 1", "sandybridge-e5-1650 pauseCycles=300, seed 2");
        assertThat(events.failed().count()).isZero();
        assertThat(events.skipped().count()).isZero();
        assertThat(events.succeeded().list().stream().filter(e -> e.getTestDescriptor().isTest())).hasSize(4);
    }

    @Test
    void shouldReportTheMachineSeedReplayAndTheRacingAccessesWhenTheLockIsBroken() throws Exception {
        Throwable failure = failureOf(run("checkThenActLockStaysExclusive"));
        String report = failure.getMessage();

        assertThat(failure).isInstanceOf(SimulationFailure.class);
        assertThat(report).contains("owner after a PAUSE inside the lock")
                .contains("  machine: --machine skylake-i7-6700\n")
                .contains("  tuning:  net6   seed: 1\n")
                .contains("  replay:  -Dspinlab.sim.machine=\"skylake-i7-6700\" -Dspinlab.sim.seed=1")
                .contains("scheduling points before the failure (virtual time; one column per thread):");
        // The race: two threads read the lock free, and both take it with a plain volatile write.
        List<String> rows = report.lines().filter(l -> l.contains("read CheckThenActLock#0.locked = false")).toList();
        assertThat(rows.stream().map(SimulationExtensionTest::column).distinct().count())
                .as("columns (threads) that read the lock free:\n" + report).isGreaterThanOrEqualTo(2);
        assertThat(report).contains("volatile write CheckThenActLock#0.locked = false -> true")
                .contains("threw AssertionFailedError: [owner after a PAUSE inside the lock]");
        Path trace = tracePath(report);
        assertThat(trace).exists();
        assertThat(Files.readString(trace)).contains("\"traceEvents\"");
    }

    /** The column (0 = first thread) a table row has its text in. */
    private static int column(String row) {
        String[] cells = row.split(" \\| ", -1);
        for (int i = 1; i < cells.length; i++) {
            if (!cells[i].isBlank()) {
                return i;
            }
        }
        return -1;
    }

    private static Path tracePath(String report) {
        Matcher m = Pattern.compile("  trace:   (\\S+) \\(open it in").matcher(report);
        assertThat(m.find()).as("trace line in:\n" + report).isTrue();
        return Path.of(m.group(1));
    }

    @Test
    void shouldSayTheFailingCheckCameAfterTheRunWhenTheRunCompleted() {
        String report = failureOf(run("failsAfterTheRun")).getMessage();

        assertThat(report).contains("[last writer]").contains("the failing check came after it")
                .contains("scheduling points of the run");
    }

    @Test
    void shouldPublishANoticeWhenTheRunSawNoContention() {
        Events events = run("oneThreadSeesNoContention");

        assertThat(events.failed().count()).isZero();
        List<String> entries = events.reportingEntryPublished().list().stream()
                .map(e -> e.getPayload(ReportEntry.class).orElseThrow().getKeyValuePairs().get("spinlab")).toList();
        assertThat(entries).containsExactly(Reports.NO_CONTENTION);
        assertThat(events.reportingEntryPublished().list()).hasSize(1);
    }

    @Test
    void shouldFailWithOneLineNamingTheMachineWhenTheMachineIsUnknown() {
        Throwable failure = failureOf(run("unknownMachine"));

        assertThat(failure).isInstanceOf(IllegalArgumentException.class);
        assertThat(failure.getMessage()).startsWith("@SimulationTest machine 'no-such-machine': ")
                .contains("skylake-i7-6700").doesNotContain("\n");
    }

    @Test
    void shouldRunOnlyTheGivenSeedAndMachineWhenReplayPropertiesAreSet() {
        System.setProperty(SimulationExtension.SEED_PROPERTY, "2");
        System.setProperty(SimulationExtension.MACHINE_PROPERTY, "skylake-i7-6700 logicalProcessors=2");
        try {
            Events events = run("ttasLockStaysExclusive");
            assertThat(invocationNames(events)).containsExactly("skylake-i7-6700 physicalCores=1 logicalProcessors=2, seed 2");
        } finally {
            System.clearProperty(SimulationExtension.SEED_PROPERTY);
            System.clearProperty(SimulationExtension.MACHINE_PROPERTY);
        }
    }
}
