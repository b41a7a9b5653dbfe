package io.spinlab.properties.sim;

/**
 * What the threads of a {@link PoolWorld} run saw, per item (by id) and for the pool; the facts
 * {@link ThreadPoolExactlyOnceProperties} judges. Times are a logical clock of the scenario: one
 * tick per submission begun or ended, per shutdown begun or ended and per item run begun, in the
 * order the simulated threads did them.
 *
 * @param runs            how many times each item ran
 * @param returned        how many times {@code shutdownNow()} returned each item
 * @param submitted       for each item: {@link #NOT_SUBMITTED}, {@link #ACCEPTED} or {@link #REJECTED}
 * @param submitBegan     when the call that submitted each item began (0: never)
 * @param submitEnded     when it returned or threw (0: never)
 * @param shutdownBegan   when the first shutdown call began ({@code Long.MAX_VALUE}: never)
 * @param shutdownEnded   when it returned
 * @param terminated      whether the pool terminated within the wait the controller gave it
 * @param pendingAfter    the pool's pending count after the wait
 * @param errorsReported  calls of the pool's error handler
 * @param steals          items workers took from other workers' local queues
 * @param firstRunBegan   when each item's first run began (0: never)
 * @param firstRunInterrupted whether the thread of each item's first run was interrupted when it began
 * @param shutdownNowEnded when the first {@code shutdownNow()} call returned ({@code Long.MAX_VALUE}: never)
 */
public record PoolObservation(int[] runs, int[] returned, int[] submitted, long[] submitBegan, long[] submitEnded,
                              long shutdownBegan, long shutdownEnded, boolean terminated, long pendingAfter,
                              int errorsReported, long steals, long[] firstRunBegan, boolean[] firstRunInterrupted,
                              long shutdownNowEnded) {

    public static final int NOT_SUBMITTED = 0;
    public static final int ACCEPTED = 1;
    public static final int REJECTED = 2;
}
