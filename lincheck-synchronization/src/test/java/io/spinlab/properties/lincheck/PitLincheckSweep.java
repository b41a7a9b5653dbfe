package io.spinlab.properties.lincheck;

import io.spinlab.model.spec.LifoSemaphoreSpec;
import io.spinlab.model.spec.MonitorLockSpec;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Predicate;

/**
 * PIT's undetected mutants planted in the model-checking configurations of this module's synchronization
 * suites (see {@link AbstractPitLincheckSweep}).
 */
class PitLincheckSweep extends AbstractPitLincheckSweep {
    private static final String LOCK = "io.spinlab.impl.lock.";

    @Override
    protected List<Configuration> configurations() {
        List<Configuration> all = new ArrayList<>();
        Predicate<String> monitor = startsWith(LOCK + "MonitorLock", LOCK + "WaitQueue", LOCK + "EntryProtocol",
                LOCK + "CompetingEntryProtocol", LOCK + "BargingAwareLock", LOCK + "ConvoyAwareLock",
                LOCK + "CoreRtLock");
        for (Class<?> givingUp : List.of(MonitorLockLinearizabilityTest.BargingGivingUp.class,
                MonitorLockLinearizabilityTest.CoreRtGivingUp.class)) {
            all.add(new Configuration("Monitor " + givingUp.getSimpleName(), monitor, givingUp,
                    MonitorLockLinearizabilityTest::givingUpOptions));
            all.add(new Configuration("Monitor " + givingUp.getSimpleName() + ", 3 threads", monitor, givingUp,
                    () -> LincheckBudget.threeThreads(MonitorLockLinearizabilityTest.givingUpOptions())));
        }
        all.add(new Configuration("Monitor barging, spinning critical sections", monitor,
                MonitorLockLinearizabilityTest.BargingSpinningCriticalSections.class,
                () -> LincheckBudget.modelChecking().sequentialSpecification(MonitorLockSpec.class)));
        all.add(new Configuration("Monitor barging, spinning critical sections, 3 threads", monitor,
                MonitorLockLinearizabilityTest.BargingSpinningCriticalSections.class,
                () -> LincheckBudget.threeThreads(LincheckBudget.modelChecking())
                        .sequentialSpecification(MonitorLockSpec.class)));
        all.add(new Configuration("Monitor barging, ownership", monitor,
                MonitorLockLinearizabilityTest.BargingOwnership.class,
                () -> MonitorLockLinearizabilityTest.ownership(LincheckBudget.modelChecking())));
        all.add(new Configuration("Monitor convoy, ownership", monitor,
                MonitorLockLinearizabilityTest.ConvoyOwnership.class,
                () -> MonitorLockLinearizabilityTest.ownership(LincheckBudget.modelChecking())));
        all.add(new Configuration("Monitor corert, ownership", monitor,
                MonitorLockLinearizabilityTest.CoreRtOwnership.class,
                () -> MonitorLockLinearizabilityTest.ownership(LincheckBudget.modelChecking())));
        for (Class<?> sections : List.of(MonitorLockLinearizabilityTest.BargingCriticalSections.class,
                MonitorLockLinearizabilityTest.ConvoyCriticalSections.class,
                MonitorLockLinearizabilityTest.CoreRtCriticalSections.class)) {
            all.add(new Configuration("Monitor " + sections.getSimpleName(), monitor, sections,
                    () -> LincheckBudget.modelChecking().sequentialSpecification(MonitorLockSpec.class)));
            all.add(new Configuration("Monitor " + sections.getSimpleName() + ", 3 threads", monitor, sections,
                    () -> LincheckBudget.threeThreads(LincheckBudget.modelChecking())
                            .sequentialSpecification(MonitorLockSpec.class)));
        }

        Predicate<String> semaphore = startsWith("io.spinlab.impl.pool.LifoSemaphore", "io.spinlab.impl.pool.LifoWaiters");
        all.add(new Configuration("LifoSemaphore", semaphore, LifoSemaphoreLinearizabilityTest.class,
                () -> CollectionsLincheck.modelChecking(LifoSemaphoreSpec.class)));
        all.add(new Configuration("LifoSemaphore, 3 threads", semaphore, LifoSemaphoreLinearizabilityTest.class,
                () -> LincheckBudget.threeThreads(CollectionsLincheck.modelChecking(LifoSemaphoreSpec.class))));
        all.add(new Configuration("LifoSemaphore, spinning wait", semaphore,
                LifoSemaphoreLinearizabilityTest.SpinningAwait.class,
                () -> CollectionsLincheck.modelChecking(LifoSemaphoreLinearizabilityTest.SpinningAwaitSpec.class)));
        all.add(new Configuration("LifoSemaphore, spinning wait, 3 threads", semaphore,
                LifoSemaphoreLinearizabilityTest.SpinningAwait.class, () -> LincheckBudget.threeThreads(
                        CollectionsLincheck.modelChecking(LifoSemaphoreLinearizabilityTest.SpinningAwaitSpec.class))));
        Predicate<String> task = startsWith("io.spinlab.impl.pool.Task");
        all.add(new Configuration("Task", task, TaskLinearizabilityTest.class,
                TaskLinearizabilityTest::modelCheckingOptions));
        all.add(new Configuration("Task, 3 threads", task, TaskLinearizabilityTest.class,
                () -> LincheckBudget.threeThreads(TaskLinearizabilityTest.modelCheckingOptions())));
        all.add(new Configuration("Task, timed wait", task, TaskLinearizabilityTest.TimedAwait.class,
                TaskLinearizabilityTest::timedAwaitOptions));
        all.add(new Configuration("Task, timed wait, 3 threads", task, TaskLinearizabilityTest.TimedAwait.class,
                () -> LincheckBudget.threeThreads(TaskLinearizabilityTest.timedAwaitOptions())));
        Predicate<String> gate = startsWith("io.spinlab.impl.pool.StarvationGate", "io.spinlab.impl.pool.ThreadPool",
                "io.spinlab.impl.pool.ThreadCounts", "io.spinlab.impl.pool.PerItemThreadRequests");
        all.add(new Configuration("ThreadPool gate", gate, ThreadPoolGateLinearizabilityTest.class,
                ThreadPoolGateLinearizabilityTest::options));
        all.add(new Configuration("ThreadPool gate, 3 threads", gate, ThreadPoolGateLinearizabilityTest.class,
                () -> LincheckBudget.threeThreads(ThreadPoolGateLinearizabilityTest.options())));
        Predicate<String> countdown = startsWith("io.spinlab.impl.event.CountdownEvent");
        all.add(new Configuration("CountdownEvent", countdown, CountdownEventLinearizabilityTest.Operations.class,
                CountdownEventLinearizabilityTest::modelCheckingOptions));
        all.add(new Configuration("CountdownEvent, 3 threads", countdown,
                CountdownEventLinearizabilityTest.Operations.class,
                () -> LincheckBudget.threeThreads(CountdownEventLinearizabilityTest.modelCheckingOptions())));
        all.add(new Configuration("CountdownEvent, wait(0)", countdown,
                CountdownEventLinearizabilityTest.WithWaitZero.class,
                CountdownEventLinearizabilityTest::modelCheckingOptions));
        return all;
    }
}
