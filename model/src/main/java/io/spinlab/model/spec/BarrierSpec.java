package io.spinlab.model.spec;

/**
 * Sequential specification of a reusable barrier ({@code Barrier}) as seen by one arriving
 * thread at a time: a participant count and a phase number.
 *
 * <p>Models {@code addParticipants(n)} (returns the phase the new participants join),
 * {@code removeParticipants(n)} (and {@code removeParticipant()}, one), {@code participantCount},
 * {@code currentPhase}, and {@code signalAndWaitZero}, an arrival with a zero timeout: the last
 * participant to arrive completes the phase (true); any other arrival finds the phase
 * incomplete and is withdrawn (false), leaving no trace. Rejections change nothing: a count
 * below 1 or above the maximum, removing more participants than there are
 * ({@code IllegalArgumentException}), arriving at a barrier without participants
 * ({@code IllegalStateException}).
 *
 * <p>Leaves out: two threads arriving together. They meet and both pass, which no sequential
 * order of single arrivals produces, so a checker must keep arrivals on one thread. Also left
 * out: waits that block, the post-phase action, {@code participantsRemaining} (it shows an
 * arrival that is in progress, which has no sequential counterpart), and the rejection of a
 * removal that would leave fewer participants than have arrived: in this sequential view no
 * arrival is pending between operations.
 */
public class BarrierSpec {
    /** Most participants a barrier can have. */
    public static final int MAX_PARTICIPANTS = 0x7FFF;

    private int participants;
    private long phase;

    /** @param participants 0..{@value #MAX_PARTICIPANTS} */
    public BarrierSpec(int participants) {
        if (participants < 0 || participants > MAX_PARTICIPANTS) {
            throw new IllegalArgumentException("participants = " + participants + " is out of range");
        }
        this.participants = participants;
    }

    /**
     * Arrives with a zero timeout.
     *
     * @return {@code Boolean.TRUE} if this arrival completed the phase, {@code Boolean.FALSE} if it was
     *         withdrawn, or {@code Outcome.thrown(IllegalStateException.class)} if there are no participants
     */
    public Object signalAndWaitZero() {
        if (participants == 0) {
            return Outcome.thrown(IllegalStateException.class);
        }
        if (participants > 1) {
            return false;
        }
        phase++;
        return true;
    }

    /**
     * Adds {@code count} participants to the current phase.
     *
     * @return the phase they join (a {@code Long}), or {@code Outcome.thrown(IllegalArgumentException.class)}
     *         if {@code count} is below 1 or the total would exceed {@value #MAX_PARTICIPANTS}
     */
    public Object addParticipants(int count) {
        if (count < 1 || participants + count > MAX_PARTICIPANTS) {
            return Outcome.thrown(IllegalArgumentException.class);
        }
        participants += count;
        return phase;
    }

    /**
     * Removes {@code count} participants.
     *
     * @return {@link Outcome#OK}, or {@code Outcome.thrown(IllegalArgumentException.class)} if {@code count}
     *         is below 1 or above the participant count
     */
    public Object removeParticipants(int count) {
        if (count < 1 || count > participants) {
            return Outcome.thrown(IllegalArgumentException.class);
        }
        participants -= count;
        return Outcome.OK;
    }

    /** Removes one participant: {@code removeParticipants(1)} ({@code Barrier.RemoveParticipant} in .NET). */
    public Object removeParticipant() {
        return removeParticipants(1);
    }

    public int participantCount() {
        return participants;
    }

    /** The number of the current phase, starting at 0. */
    public long currentPhase() {
        return phase;
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof BarrierSpec that && that.getClass() == getClass()
                && that.participants == participants && that.phase == phase;
    }

    @Override
    public int hashCode() {
        return 31 * participants + Long.hashCode(phase);
    }

    @Override
    public String toString() {
        return "BarrierSpec[phase=" + phase + ", participants=" + participants + "]";
    }
}
