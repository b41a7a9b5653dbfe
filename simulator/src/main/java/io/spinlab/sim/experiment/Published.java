package io.spinlab.sim.experiment;

import java.util.Locale;
import java.util.Objects;
import java.util.OptionalDouble;

/**
 * What the published results ({@code reference/published-results.md}) say about one row: a
 * figure (left and right scores, hence a Δ %), or only a direction, or nothing. The simulator
 * is judged on the direction, never fitted to the figure.
 *
 * @param direction    what the publication claims for this row
 * @param deltaPercent the published Δ % (right against left), when a figure exists
 * @param source       where the claim comes from, e.g. {@code coreclr #13556: 56 → 330}
 */
public record Published(Direction direction, OptionalDouble deltaPercent, String source) {

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
        /** The two are within {@link #NOISE_PERCENT} of each other. */
        NEUTRAL,
        /** Nothing was published about this row. */
        NONE
    }

    public Published {
        Objects.requireNonNull(direction, "direction");
        Objects.requireNonNull(deltaPercent, "deltaPercent");
        Objects.requireNonNull(source, "source");
    }

    /** A published pair of scores; the direction is the sign of their Δ. */
    public static Published figure(double left, double right, String source) {
        double delta = Experiment.deltaPercent(left, right);
        return new Published(delta > 0 ? Direction.RIGHT_BETTER : Direction.NOT_WORSE, OptionalDouble.of(delta),
                source);
    }

    /** A published Δ % without the scores. */
    public static Published delta(double deltaPercent, String source) {
        return new Published(deltaPercent > 0 ? Direction.RIGHT_BETTER : Direction.NOT_WORSE,
                OptionalDouble.of(deltaPercent), source);
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
            case NEUTRAL -> Math.abs(simulatedDeltaPercent) <= NOISE_PERCENT ? Verdict.AGREES : Verdict.DISAGREES;
            case NONE -> Verdict.NO_CLAIM;
        };
    }

    /**
     * The verdict of an interval of simulated Δ % (the 95 % interval over seeds) against this
     * claim: it agrees when the whole interval satisfies the claim, disagrees when none of it
     * does, and is {@link Verdict#NEUTRAL} when it straddles the claim's threshold
     * ({@value #NOISE_PERCENT} %): "better" needs Δ above +5 %, "not worse" Δ at or above −5 %,
     * "neutral" |Δ| at most 5 %. A published figure counts as "better" (or "not worse" when it is
     * not above 0), as in {@link #judge(double)}.
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
            case NEUTRAL -> "neutral";
            case NONE -> "";
        };
    }
}
