package io.spinlab.sim.experiment;

import java.util.Locale;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalDouble;

/**
 * What the published results say about one row: a figure (left and right scores, hence a Δ %),
 * or only a direction, or nothing. The simulator is judged on the direction, never fitted to the
 * figure. The figures and claims of the re-created experiments live in one data file
 * ({@link PublishedFigures}), each with its citation.
 *
 * @param direction    what the publication claims for this row
 * @param deltaPercent the published Δ % (right against left), when a figure exists
 * @param source       where the claim comes from, in words, e.g. {@code coreclr #13556, Core i7-6700: 56 → 330}
 * @param leftScore    the published left score, where the source gives the scores
 * @param rightScore   the published right score, where the source gives the scores
 * @param citation     the thread, comment and machine the claim was taken from, where known
 * @param leftPerMs    the published left score in spinlab's unit, operations per ms, where the source gives
 *                     it in a unit that converts (a {@linkplain PublishedFigures.Level level}); the simulated
 *                     left score is set beside it ({@link ExperimentRow#leftOverPublished()})
 */
public record Published(Direction direction, OptionalDouble deltaPercent, String source, OptionalDouble leftScore,
                        OptionalDouble rightScore, Optional<Citation> citation, OptionalDouble leftPerMs) {

    /**
     * The smallest Δ that counts as a change, %: "better" means more than this, "not worse" no
     * lower than minus this, "neutral" within it either way. Simulated runs are deterministic,
     * but lock-step dynamics (threads that start together stay in phase) move a score by a few
     * per cent from one configuration to the next.
     */
    public static final double NOISE_PERCENT = 5;

    /** The claim about the right tuning against the left one. */
    public enum Direction {
        /** The right tuning scores higher by more than {@link #NOISE_PERCENT}. */
        RIGHT_BETTER,
        /** The right tuning does not score lower by more than {@link #NOISE_PERCENT}. */
        NOT_WORSE,
        /** The right tuning scores lower by more than {@link #NOISE_PERCENT}. */
        RIGHT_WORSE,
        /** The two are within {@link #NOISE_PERCENT} of each other. */
        NEUTRAL,
        /** Nothing was published about this row. */
        NONE
    }

    public Published {
        Objects.requireNonNull(direction, "direction");
        Objects.requireNonNull(deltaPercent, "deltaPercent");
        Objects.requireNonNull(source, "source");
        Objects.requireNonNull(leftScore, "leftScore");
        Objects.requireNonNull(rightScore, "rightScore");
        Objects.requireNonNull(citation, "citation");
        Objects.requireNonNull(leftPerMs, "leftPerMs");
    }

    /** A claim without scores or citation. */
    public Published(Direction direction, OptionalDouble deltaPercent, String source) {
        this(direction, deltaPercent, source, OptionalDouble.empty(), OptionalDouble.empty(), Optional.empty(),
                OptionalDouble.empty());
    }

    /** A published pair of scores; the direction is that of their Δ ({@link #directionOf}). */
    public static Published figure(double left, double right, String source) {
        double delta = Experiment.deltaPercent(left, right);
        return new Published(directionOf(delta), OptionalDouble.of(delta), source, OptionalDouble.of(left),
                OptionalDouble.of(right), Optional.empty(), OptionalDouble.empty());
    }

    /** A published Δ % without the scores; the direction is that of the Δ ({@link #directionOf}). */
    public static Published delta(double deltaPercent, String source) {
        return new Published(directionOf(deltaPercent), OptionalDouble.of(deltaPercent), source);
    }

    /**
     * The claim a published Δ % makes: better above +{@value #NOISE_PERCENT} %, worse below
     * −{@value #NOISE_PERCENT} %, neutral within (a published +2 % is no claim that the change helps).
     */
    public static Direction directionOf(double deltaPercent) {
        if (deltaPercent > NOISE_PERCENT) {
            return Direction.RIGHT_BETTER;
        }
        return deltaPercent < -NOISE_PERCENT ? Direction.RIGHT_WORSE : Direction.NEUTRAL;
    }

    /** This claim, citing {@code where}. */
    public Published citing(Citation where) {
        return new Published(direction, deltaPercent, source, leftScore, rightScore, Optional.of(where), leftPerMs);
    }

    /** This claim with the published left score {@code perMs}, in operations per ms (a level). */
    public Published withLeftPerMs(double perMs) {
        if (!(perMs > 0) || Double.isInfinite(perMs)) {
            throw new IllegalArgumentException("leftPerMs = " + perMs + "; valid: a positive number");
        }
        return new Published(direction, deltaPercent, source, leftScore, rightScore, citation,
                OptionalDouble.of(perMs));
    }

    /** A published direction without a figure. */
    public static Published direction(Direction direction, String source) {
        return new Published(direction, OptionalDouble.empty(), source);
    }

    /** Nothing published. */
    public static Published none() {
        return new Published(Direction.NONE, OptionalDouble.empty(), "");
    }

    /** Whether a simulated Δ % agrees with this claim. */
    public Verdict judge(double simulatedDeltaPercent) {
        if (Double.isNaN(simulatedDeltaPercent)) {
            return direction == Direction.NONE ? Verdict.NO_CLAIM : Verdict.DISAGREES;
        }
        return switch (direction) {
            case RIGHT_BETTER -> simulatedDeltaPercent > NOISE_PERCENT ? Verdict.AGREES : Verdict.DISAGREES;
            case NOT_WORSE -> simulatedDeltaPercent >= -NOISE_PERCENT ? Verdict.AGREES : Verdict.DISAGREES;
            case RIGHT_WORSE -> simulatedDeltaPercent < -NOISE_PERCENT ? Verdict.AGREES : Verdict.DISAGREES;
            case NEUTRAL -> Math.abs(simulatedDeltaPercent) <= NOISE_PERCENT ? Verdict.AGREES : Verdict.DISAGREES;
            case NONE -> Verdict.NO_CLAIM;
        };
    }

    /**
     * The verdict of an interval of simulated Δ % (the 95 % interval over seeds) against this
     * claim: it agrees when the whole interval satisfies the claim, disagrees when none of it
     * does, and is {@link Verdict#NEUTRAL} when it straddles the claim's threshold
     * ({@value #NOISE_PERCENT} %): "better" needs Δ above +5 %, "worse" Δ below −5 %, "not worse"
     * Δ at or above −5 %, "neutral" |Δ| at most 5 %. A published figure claims the direction of its
     * Δ ({@link #directionOf}).
     */
    public Verdict judge(double low, double high) {
        if (Double.isNaN(low) || Double.isNaN(high)) {
            return direction == Direction.NONE ? Verdict.NO_CLAIM : Verdict.DISAGREES;
        }
        return switch (direction) {
            case RIGHT_BETTER -> low > NOISE_PERCENT ? Verdict.AGREES
                    : high <= NOISE_PERCENT ? Verdict.DISAGREES : Verdict.NEUTRAL;
            case NOT_WORSE -> low >= -NOISE_PERCENT ? Verdict.AGREES
                    : high < -NOISE_PERCENT ? Verdict.DISAGREES : Verdict.NEUTRAL;
            case RIGHT_WORSE -> high < -NOISE_PERCENT ? Verdict.AGREES
                    : low >= -NOISE_PERCENT ? Verdict.DISAGREES : Verdict.NEUTRAL;
            case NEUTRAL -> low >= -NOISE_PERCENT && high <= NOISE_PERCENT ? Verdict.AGREES
                    : low > NOISE_PERCENT || high < -NOISE_PERCENT ? Verdict.DISAGREES : Verdict.NEUTRAL;
            case NONE -> Verdict.NO_CLAIM;
        };
    }

    /** Short text: {@code +489 %}, {@code better}, {@code not worse}, {@code neutral}, or empty. */
    public String describe() {
        if (deltaPercent.isPresent()) {
            return String.format(Locale.ROOT, "%+.0f %%", deltaPercent.getAsDouble());
        }
        return switch (direction) {
            case RIGHT_BETTER -> "better";
            case NOT_WORSE -> "not worse";
            case RIGHT_WORSE -> "worse";
            case NEUTRAL -> "neutral";
            case NONE -> "";
        };
    }
}
