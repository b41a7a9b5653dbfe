package io.spinlab.properties.sim;

/**
 * What a {@link CaravanWorld} run saw; together with the simulator's spin-waiter counts on the
 * manager's lock, the facts {@link NoLockCaravanProperties} judges.
 *
 * @param fillerWritten            events the filler wrote before its first drop
 * @param outcomes                 per failing writer, per attempt: what the write returned
 *                                 ({@link BufferObservation#WRITTEN} ...)
 * @param phaseLockAcquisitions    acquisitions of the manager's lock while only failing writers ran
 * @param phaseDropPathAcquisitions of those, the ones by writers whose reservation then failed
 * @param phaseNanos               how long the failing writers ran, virtual ns
 * @param eventsRead               events the final drain read
 * @param dropsSeen                drops the final drain reported
 */
public record CaravanObservation(int fillerWritten, int[][] outcomes, long phaseLockAcquisitions,
                                 long phaseDropPathAcquisitions, long phaseNanos, long eventsRead, long dropsSeen) {
}
