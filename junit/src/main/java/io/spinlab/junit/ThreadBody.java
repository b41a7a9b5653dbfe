package io.spinlab.junit;

/** What one simulated thread does; {@code index} is its number among the threads added together (from 0). */
@FunctionalInterface
public interface ThreadBody {
    void run(int index) throws Exception;
}
