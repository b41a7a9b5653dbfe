package io.spinlab.properties.mutation;

/** A class for {@code PitMutantsTest} to mutate the way PIT does (its instruction positions are pinned there). */
public final class PitFixture {
    private int touched;

    public int difference(int a, int b) {
        if (a > b) {
            return a - b;
        }
        return b - a;
    }

    public boolean isPositive(int a) {
        return a > 0;
    }

    public int touch() {
        touched++;
        record();
        return touched;
    }

    private void record() {
        touched += 10;
    }

    public int countDown(int n) {
        int left = n;
        left--;
        return left;
    }
}
