package io.spinlab.properties.engine;

import java.util.function.Predicate;

/**
 * Shrinks a failing choice sequence: repeatedly tries simpler sequences (shortlex-smaller) and
 * keeps any that still fails, until no pass makes progress or a budget runs out. Works on
 * choices, so it needs nothing from the generator but determinism.
 *
 * <p>Passes, in order: delete spans (8, 4, 2, 1 long), zero spans, lower each choice (to 0,
 * then by binary search), and swap out-of-order neighbours (sort).
 */
final class Shrinker {

    /** What shrinking achieved. */
    record Outcome(Choices choices, int steps, int attempts, boolean exhausted) {
    }

    private final Predicate<Choices> stillFails;
    private final int maxAttempts;
    private final long deadlineNanos;
    private Choices best;
    private int steps;
    private int attempts;
    private boolean exhausted;

    /**
     * @param stillFails re-runs the property on candidate choices; true if it fails the same way
     */
    Shrinker(Choices failing, Predicate<Choices> stillFails, int maxAttempts, long maxNanos) {
        this.best = failing;
        this.stillFails = stillFails;
        this.maxAttempts = maxAttempts;
        this.deadlineNanos = System.nanoTime() + maxNanos;
    }

    Outcome shrink() {
        boolean progress = true;
        while (progress && !exhausted) {
            progress = deleteSpans() | zeroSpans() | lowerEach() | sortNeighbours();
        }
        return new Outcome(best, steps, attempts, exhausted);
    }

    private boolean deleteSpans() {
        boolean progress = false;
        for (int length : new int[] {8, 4, 2, 1}) {
            for (int start = best.size() - length; start >= 0 && !exhausted; start--) {
                if (start + length > best.size()) {
                    continue;
                }
                long[] current = best.toArray();
                long[] candidate = new long[current.length - length];
                System.arraycopy(current, 0, candidate, 0, start);
                System.arraycopy(current, start + length, candidate, start, current.length - start - length);
                progress |= tryCandidate(candidate);
            }
        }
        return progress;
    }

    private boolean zeroSpans() {
        boolean progress = false;
        for (int length : new int[] {8, 4, 2}) {
            for (int start = 0; start + length <= best.size() && !exhausted; start++) {
                long[] candidate = best.toArray();
                boolean changed = false;
                for (int i = start; i < start + length; i++) {
                    changed |= candidate[i] != 0;
                    candidate[i] = 0;
                }
                if (changed) {
                    progress |= tryCandidate(candidate);
                }
            }
        }
        return progress;
    }

    private boolean lowerEach() {
        boolean progress = false;
        for (int i = 0; i < best.size() && !exhausted; i++) {
            long value = best.get(i);
            if (value == 0) {
                continue;
            }
            if (tryWith(i, 0)) {
                progress = true;
                continue;
            }
            // Binary search for the smallest value that still fails, assuming rough monotonicity.
            long low = 0;
            long high = value;
            while (low + 1 < high && !exhausted && i < best.size()) {
                long mid = low + (high - low) / 2;
                if (tryWith(i, mid)) {
                    high = mid;
                    progress = true;
                } else {
                    low = mid;
                }
            }
            if (!exhausted && i < best.size() && best.get(i) > 1 && tryWith(i, best.get(i) - 1)) {
                progress = true;
            }
        }
        return progress;
    }

    private boolean sortNeighbours() {
        boolean progress = false;
        for (int i = 0; i + 1 < best.size() && !exhausted; i++) {
            if (best.get(i) > best.get(i + 1)) {
                long[] candidate = best.toArray();
                long swap = candidate[i];
                candidate[i] = candidate[i + 1];
                candidate[i + 1] = swap;
                progress |= tryCandidate(candidate);
            }
        }
        return progress;
    }

    private boolean tryWith(int index, long value) {
        if (index >= best.size()) {
            return false;
        }
        long[] candidate = best.toArray();
        candidate[index] = value;
        return tryCandidate(candidate);
    }

    private boolean tryCandidate(long[] values) {
        Choices candidate = Choices.wrap(values);
        if (!candidate.simplerThan(best)) {
            return false;
        }
        if (attempts >= maxAttempts || System.nanoTime() - deadlineNanos > 0) {
            exhausted = true;
            return false;
        }
        attempts++;
        if (stillFails.test(candidate)) {
            best = candidate;
            steps++;
            return true;
        }
        return false;
    }
}
