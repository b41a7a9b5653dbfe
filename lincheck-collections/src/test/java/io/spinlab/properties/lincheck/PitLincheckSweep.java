package io.spinlab.properties.lincheck;

import io.spinlab.model.spec.ConcurrentQueueSpec;
import io.spinlab.model.spec.StackSpec;
import io.spinlab.model.spec.WorkStealingQueueSpec;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Predicate;

/**
 * PIT's undetected mutants planted in the model-checking configurations of this module's collection
 * suites (see {@link AbstractPitLincheckSweep}).
 */
class PitLincheckSweep extends AbstractPitLincheckSweep {
    private static final String COLLECTIONS = "io.spinlab.impl.collections.";

    @Override
    protected List<Configuration> configurations() {
        List<Configuration> all = new ArrayList<>();
        Predicate<String> queue = startsWith(COLLECTIONS + "ConcurrentQueue");
        all.add(new Configuration("ConcurrentQueue", queue, ConcurrentQueueLinearizabilityTest.class,
                () -> CollectionsLincheck.modelChecking(ConcurrentQueueSpec.class)));
        all.add(new Configuration("ConcurrentQueue, 3 threads", queue, ConcurrentQueueLinearizabilityTest.class,
                () -> LincheckBudget.threeThreads(CollectionsLincheck.modelChecking(ConcurrentQueueSpec.class))));
        all.add(new Configuration("ConcurrentQueue across segments", queue,
                ConcurrentQueueLinearizabilityTest.AcrossSegments.class,
                ConcurrentQueueLinearizabilityTest::acrossSegmentsOptions));
        all.add(new Configuration("ConcurrentQueue across segments, 3 threads", queue,
                ConcurrentQueueLinearizabilityTest.AcrossSegments.class,
                () -> LincheckBudget.threeThreads(ConcurrentQueueLinearizabilityTest.acrossSegmentsOptions())));
        all.add(new Configuration("ConcurrentQueue with snapshots", queue,
                ConcurrentQueueLinearizabilityTest.WithSnapshots.class,
                () -> CollectionsLincheck.modelChecking(ConcurrentQueueLinearizabilityTest.WithSnapshotsSpec.class)));
        all.add(new Configuration("ConcurrentQueue with snapshots, 3 threads", queue,
                ConcurrentQueueLinearizabilityTest.WithSnapshots.class, () -> LincheckBudget.threeThreads(
                        CollectionsLincheck.modelChecking(ConcurrentQueueLinearizabilityTest.WithSnapshotsSpec.class))));
        Predicate<String> stack = startsWith(COLLECTIONS + "ConcurrentStack");
        all.add(new Configuration("ConcurrentStack", stack, ConcurrentStackLinearizabilityTest.class,
                () -> CollectionsLincheck.modelChecking(StackSpec.class)));
        all.add(new Configuration("ConcurrentStack, 3 threads", stack, ConcurrentStackLinearizabilityTest.class,
                () -> LincheckBudget.threeThreads(CollectionsLincheck.modelChecking(StackSpec.class))));
        Predicate<String> segments = startsWith(COLLECTIONS + "QueueSegmentQueue");
        all.add(new Configuration("QueueSegmentQueue", segments, QueueSegmentQueueLinearizabilityTest.class,
                () -> CollectionsLincheck.modelChecking(ConcurrentQueueSpec.class)));
        all.add(new Configuration("QueueSegmentQueue, 3 threads", segments,
                QueueSegmentQueueLinearizabilityTest.class,
                () -> LincheckBudget.threeThreads(CollectionsLincheck.modelChecking(ConcurrentQueueSpec.class))));
        Predicate<String> deque = startsWith(COLLECTIONS + "WorkStealingQueue");
        all.add(new Configuration("WorkStealingQueue", deque, WorkStealingQueueLinearizabilityTest.class,
                () -> CollectionsLincheck.modelChecking(WorkStealingQueueSpec.class)));
        all.add(new Configuration("WorkStealingQueue, 3 threads", deque, WorkStealingQueueLinearizabilityTest.class,
                () -> LincheckBudget.threeThreads(CollectionsLincheck.modelChecking(WorkStealingQueueSpec.class))));
        return all;
    }
}
