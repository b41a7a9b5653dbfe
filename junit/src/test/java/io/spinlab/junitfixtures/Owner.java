package io.spinlab.junitfixtures;

/** Who is inside the critical section: each thread writes its index on entry and checks it is still there. */
public final class Owner {
    public volatile int index = -1;
}
