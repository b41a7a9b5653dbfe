package io.spinlab.model.spec;

/**
 * Sequential specification of a manual-reset event ({@code ManualResetEventSlim}): one flag,
 * raised by {@code set}, lowered by {@code reset}.
 *
 * <p>Models {@code set}, {@code reset}, {@code isSet} and {@code waitZero}, a wait with a zero
 * timeout, which only tests the flag. Setting a set event and resetting an unset one change
 * nothing.
 *
 * <p>Leaves out: waits that block (that every waiter blocked before a {@code set} is released,
 * and none is lost), the spin phase, interruption.
 */
public class ManualResetEventSpec {
    private boolean signaled;

    /** @param initiallySet whether the event starts set */
    public ManualResetEventSpec(boolean initiallySet) {
        this.signaled = initiallySet;
    }

    /** Sets the event. */
    public void set() {
        signaled = true;
    }

    /** Resets the event. */
    public void reset() {
        signaled = false;
    }

    /** True if the event is set. */
    public boolean isSet() {
        return signaled;
    }

    /** A wait with a zero timeout: true if the event is set. */
    public boolean waitZero() {
        return signaled;
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof ManualResetEventSpec that && that.getClass() == getClass()
                && that.signaled == signaled;
    }

    @Override
    public int hashCode() {
        return Boolean.hashCode(signaled);
    }

    @Override
    public String toString() {
        return "ManualResetEventSpec[" + (signaled ? "set" : "unset") + "]";
    }
}
