package io.spinlab.sim.os;

import org.junit.jupiter.api.Test;

import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Linux's periodic balancing, by hand: each expected figure follows from the rule named beside it
 * (HZ 250, a 4 ms jiffy; loads in threads, 1,024 each).
 */
class LoadBalancerTest {

    private static final long MS = 1_000_000_000L;
    private static final long TICK = 4 * MS;

    /** Threads 0 and 2 share cpu0 (2 running or ready there), thread 1 runs alone on cpu1. */
    private static final int[] TWO_AND_ONE = {2, 1};
    /** cpu0's ready threads in the two-and-one case: thread 2 (thread 0 runs); cpu1's none. */
    private static final int[][] READY_TWO_AND_ONE = {{2}, {}};

    /** Every thread last left its processor long ago: none is cache-hot. */
    private static long cold(int thread) {
        return 0;
    }

    @Test
    void shouldBalanceEverySevenJiffiesWhileBusyOnTwoProcessorsAndEveryFifteenAtTheLongerInterval() {
        LoadBalancer balancer = new LoadBalancer(2, TICK);
        // min_interval 2 ms × busy_factor 16 = 32 ms = 8 jiffies, less one
        assertThat(balancer.busyJiffies(2)).isEqualTo(7);
        // max_interval 4 ms × 16 = 64 ms = 16 jiffies, less one
        assertThat(balancer.busyJiffies(4)).isEqualTo(15);
        assertThat(balancer.start(0, 3 * MS, 0)).isTrue();
        assertThat(balancer.start(0, 5 * MS, 0)).as("only the first dispatch starts the count").isFalse();
        assertThat(balancer.nextBalance(0)).isEqualTo(3 * MS + 28 * MS);
    }

    /**
     * A processor whose balancing ran before the simulation last balanced some ticks before its
     * first dispatch: two of its seven ticks before 3 ms, so it balances first at 3 ms + 5 jiffies;
     * its ticks keep their place after an idle spell.
     */
    @Test
    void shouldBalanceFirstWhereABalanceBeforeTheStartPutsIt() {
        LoadBalancer balancer = new LoadBalancer(2, TICK);
        assertThat(balancer.firstIntervalJiffies()).isEqualTo(7);

        balancer.start(0, 3 * MS, 2);

        assertThat(balancer.nextBalance(0)).isEqualTo(3 * MS + 20 * MS);
        balancer.resume(0, 30 * MS);
        assertThat(balancer.nextBalance(0)).as("last tick at 27 ms, then 15 jiffies").isEqualTo(27 * MS + 60 * MS);
        assertThatThrownBy(() -> new LoadBalancer(2, TICK).start(0, 0, 7))
                .hasMessage("ticksAgo = 7; allowed 0 to 6");
    }

    /**
     * A balance runs in its tick's softirq, 30 µs after the tick, and counts as that tick's: the
     * next one falls whole jiffies after the tick, and a thread switched out at the tick is cache-hot
     * in it (it ran 30 µs before, within the 0.5 ms migration cost).
     */
    @Test
    void shouldCountABalanceInItsTicksSoftirqAsTheTicksAndFindTheThreadSwitchedOutThereHot() {
        LoadBalancer balancer = new LoadBalancer(2, TICK);
        balancer.start(1, 0, 0);
        long tick = balancer.nextBalance(1);
        long softirq = tick + LoadBalancer.SOFTIRQ_DELAY_PICOS;
        assertThat(LoadBalancer.SOFTIRQ_DELAY_PICOS).isEqualTo(30_000_000L);

        // two balances fail as in the two-and-one case below; the third may move a hot thread
        balancer.balance(1, softirq, TWO_AND_ONE, READY_TWO_AND_ONE, thread -> tick);
        assertThat(balancer.nextBalance(1)).as("7 jiffies after the tick, not after the softirq").isEqualTo(tick + 28 * MS);
        long second = balancer.nextBalance(1) + LoadBalancer.SOFTIRQ_DELAY_PICOS;
        long secondTick = balancer.nextBalance(1);
        assertThat(balancer.balance(1, second, TWO_AND_ONE, READY_TWO_AND_ONE, thread -> secondTick).threads())
                .as("the load fits now, but thread 2 left cpu0 at this tick: hot").isEmpty();
        assertThat(balancer.failures(1)).isEqualTo(2);
        long third = balancer.nextBalance(1) + LoadBalancer.SOFTIRQ_DELAY_PICOS;
        long thirdTick = balancer.nextBalance(1);
        assertThat(balancer.balance(1, third, TWO_AND_ONE, READY_TWO_AND_ONE, thread -> thirdTick).threads())
                .as("two failures in a row: a hot thread may move").containsExactly(2);
    }

    @Test
    void shouldCapTheIntervalAtATenthOfASecondPerProcessor() {
        // 1 ms jiffies (HZ 1000), 64 processors: 64 ms × 16 = 1,024 jiffies, less one; cap 6,400
        assertThat(new LoadBalancer(64, MS).busyJiffies(64)).isEqualTo(1_023);
        // 1 processor: 1 ms × 16 = 16 jiffies, less one = 15; cap HZ × 1 / 10 = 100 jiffies
        assertThat(new LoadBalancer(1, MS).busyJiffies(1)).isEqualTo(15);
        // 1 processor, 4 ms jiffies, a 2 s interval asked for: capped at 25 jiffies (0.1 s)
        assertThat(new LoadBalancer(1, TICK).busyJiffies(2_000)).isEqualTo(25);
    }

    /**
     * Two threads on cpu0, one on cpu1 (average 1.5): cpu1's imbalance is half a thread, the
     * lesser of cpu0's excess and its own shortfall. A thread's whole load exceeds it, so the
     * first balance fails (one failure; interval back to 2 ms); at the second the load halved once
     * fits, and thread 2 moves (failures cleared).
     */
    @Test
    void shouldPullAThreadFromAQueueOfTwoAtTheSecondBalanceOfTheLoneProcessor() {
        LoadBalancer balancer = new LoadBalancer(2, TICK);
        balancer.start(1, 0, 0);
        assertThat(balancer.imbalance(1, 2, 3)).isEqualTo(512);

        LoadBalancer.Pull first = balancer.balance(1, 28 * MS, TWO_AND_ONE, READY_TWO_AND_ONE,
                LoadBalancerTest::cold);

        assertThat(first.threads()).isEmpty();
        assertThat(balancer.failures(1)).isEqualTo(1);
        assertThat(balancer.intervalMs(1)).isEqualTo(2);
        assertThat(balancer.nextBalance(1)).isEqualTo(56 * MS);

        LoadBalancer.Pull second = balancer.balance(1, 56 * MS, TWO_AND_ONE, READY_TWO_AND_ONE,
                LoadBalancerTest::cold);

        assertThat(second.from()).isEqualTo(0);
        assertThat(second.threads()).containsExactly(2);
        assertThat(balancer.failures(1)).isZero();
        assertThat(balancer.nextBalance(1)).isEqualTo(84 * MS);
    }

    /**
     * cpu0 holds two, cpu1 one; cpu0 balancing finds no busier queue: balanced, its interval
     * doubles to the 4 ms maximum (15 jiffies busy) and stays there.
     */
    @Test
    void shouldDoubleTheIntervalUpToItsMaximumWhenBalanced() {
        LoadBalancer balancer = new LoadBalancer(2, TICK);
        balancer.start(0, 0, 0);

        assertThat(balancer.balance(0, 28 * MS, TWO_AND_ONE, READY_TWO_AND_ONE, LoadBalancerTest::cold).threads())
                .isEmpty();
        assertThat(balancer.intervalMs(0)).isEqualTo(4);
        assertThat(balancer.failures(0)).isZero();
        assertThat(balancer.nextBalance(0)).isEqualTo(28 * MS + 60 * MS);

        balancer.balance(0, 88 * MS, TWO_AND_ONE, READY_TWO_AND_ONE, LoadBalancerTest::cold);
        assertThat(balancer.intervalMs(0)).isEqualTo(4);
    }

    /**
     * Three threads on cpu0 and one on cpu1 (average 2): the imbalance is a whole thread, so the
     * first balance moves one, the least recently run of the two ready there (thread 3 left its
     * processor at 1 ms, thread 2 at 2 ms), and stops: nothing is left of the imbalance.
     */
    @Test
    void shouldPullTheLeastRecentlyRunThreadAtOnceWhenAWholeThreadIsOver() {
        LoadBalancer balancer = new LoadBalancer(2, TICK);
        balancer.start(1, 0, 0);
        Map<Integer, Long> lastRan = Map.of(2, 2 * MS, 3, MS);

        LoadBalancer.Pull pull = balancer.balance(1, 28 * MS, new int[] {3, 1}, new int[][] {{2, 3}, {}},
                lastRan::get);

        assertThat(pull.from()).isEqualTo(0);
        assertThat(pull.threads()).containsExactly(3);
    }

    /**
     * Ten on cpu0, one on cpu1 (average 5.5): the imbalance is 4.5 threads; four move (each takes
     * a whole thread off it), the fifth's load exceeds the half left.
     */
    @Test
    void shouldPullThreadsUntilTheImbalanceIsUsedUp() {
        LoadBalancer balancer = new LoadBalancer(2, TICK);
        balancer.start(1, 0, 0);

        LoadBalancer.Pull pull = balancer.balance(1, 28 * MS, new int[] {10, 1},
                new int[][] {{1, 2, 3, 4, 5, 6, 7, 8, 9}, {}}, LoadBalancerTest::cold);

        assertThat(pull.threads()).containsExactly(1, 2, 3, 4);
    }

    /**
     * A thread that left cpu0 0.3 ms ago is cache-hot (under the 0.5 ms migration cost): it stays
     * while the balance has failed no more than once before (cache_nice_tries 1) and moves from
     * the third balance in a row on.
     */
    @Test
    void shouldLeaveACacheHotThreadUntilTwoBalancesInARowFailed() {
        LoadBalancer balancer = new LoadBalancer(2, TICK);
        balancer.start(1, 0, 0);
        int[][] ready = {{2}, {}};

        long[] times = {28 * MS, 56 * MS, 84 * MS};
        int[] moved = new int[times.length];
        for (int i = 0; i < times.length; i++) {
            long now = times[i];
            moved[i] = balancer.balance(1, now, TWO_AND_ONE, ready, t -> now - 300_000_000L).threads().length;
        }

        assertThat(moved).as("fails (whole load), fails (hot), moves (two failures)").containsExactly(0, 0, 1);
    }

    /** Both overloaded: the busiest must exceed the local by more than 17 % (3 against 2 does; 7 against 6 does not). */
    @Test
    void shouldNotPullBetweenTwoOverloadedQueuesWithinSeventeenPercent() {
        LoadBalancer balancer = new LoadBalancer(2, TICK);
        assertThat(balancer.imbalance(2, 3, 5)).isEqualTo(512);
        assertThat(balancer.imbalance(6, 7, 13)).isZero();
        assertThat(balancer.imbalance(1, 1, 2)).as("one each: balanced").isZero();
        // four processors 2, 1, 1, 0 (average 1): the local's one is not below it
        assertThat(new LoadBalancer(4, TICK).imbalance(1, 2, 4)).isZero();
    }

    /**
     * A processor idle past its due balance found nothing to pull at its idle balances: on its
     * next dispatch its interval is at the maximum, its failures cleared, and it counts from its
     * last tick before the dispatch.
     */
    @Test
    void shouldResumeAfterAnIdleSpellAsIfItsIdleBalancesFoundNothing() {
        LoadBalancer balancer = new LoadBalancer(2, TICK);
        balancer.start(1, MS, 0);
        balancer.balance(1, 29 * MS, TWO_AND_ONE, READY_TWO_AND_ONE, LoadBalancerTest::cold);
        assertThat(balancer.failures(1)).isEqualTo(1);

        balancer.resume(1, 50 * MS);
        assertThat(balancer.failures(1)).as("not overdue yet (due at 57 ms)").isEqualTo(1);

        balancer.resume(1, 100 * MS + 1);
        assertThat(balancer.failures(1)).isZero();
        assertThat(balancer.intervalMs(1)).isEqualTo(4);
        assertThat(balancer.nextBalance(1)).isEqualTo(97 * MS + 60 * MS);
    }

    @Test
    void shouldRejectAProcessorCountOrTickBelowOne() {
        assertThatThrownBy(() -> new LoadBalancer(0, TICK)).hasMessage("processors = 0; allowed 1 or more");
        assertThatThrownBy(() -> new LoadBalancer(2, 0)).hasMessage("tickPicos = 0; allowed 1 or more");
    }
}
