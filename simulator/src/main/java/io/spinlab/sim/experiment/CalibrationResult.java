package io.spinlab.sim.experiment;

import io.spinlab.model.machine.MachineProfile;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;

/**
 * The simulator's calibration figure for this host: every workload under several tunings on real
 * threads and in the simulator, and how well the two agree.
 *
 * @param host       the profile measured for this host
 * @param nsPerPause the PAUSE cost measured by the normalization code on real hardware, ns
 * @param points     one point per workload and tuning
 * @param costs      the OS costs measured on this host, which the profile takes
 * @param bytecode   what one bytecode of guest code costs here, which the profile takes when usable
 * @param lineTransferAfterNs the line transfer measured again after the points' real-thread runs, ns (NaN
 *                   when not measured): the profile has the figure measured before them, and on a virtual
 *                   machine whose processors move between the host's cores the two can differ severalfold
 * @param casLoop    a contended read-then-CAS loop on real threads and simulated ({@link ContendedCasCheck})
 * @param ringLoop   offers and takes on a contended queue ring on real threads and simulated (the same check's
 *                   {@link ContendedCasCheck.Loop#RING} loop)
 * @param handovers  a line handed back and forth between two threads, waiting by reads and by CAS, on real threads
 *                   and simulated ({@link HandoverCheck})
 * @param pollingReader a writer alone and beside a poller of its lines, on real threads and simulated
 *                   ({@link PollingReaderCheck})
 * @param yields     yields behind busy threads on real threads and simulated ({@link YieldCheck})
 * @param wakes      a parked thread woken at once and once asleep, on real threads and simulated
 *                   ({@link WakeCheck})
 */
public record CalibrationResult(MachineProfile host, double nsPerPause, List<CalibrationPoint> points,
                                HostCosts costs, BytecodeCost bytecode, double lineTransferAfterNs,
                                ContendedCasCheck casLoop, ContendedCasCheck ringLoop, HandoverCheck handovers,
                                PollingReaderCheck pollingReader, YieldCheck yields, WakeCheck wakes) {

    /** Ratio of the two line-transfer measurements beyond which {@link #lineTransferMoved()} says they differ. */
    public static final double LINE_TRANSFER_TOLERANCE = 2.0;

    public CalibrationResult {
        Objects.requireNonNull(host, "host");
        Objects.requireNonNull(costs, "costs");
        Objects.requireNonNull(bytecode, "bytecode");
        Objects.requireNonNull(casLoop, "casLoop");
        Objects.requireNonNull(ringLoop, "ringLoop");
        Objects.requireNonNull(handovers, "handovers");
        Objects.requireNonNull(pollingReader, "pollingReader");
        Objects.requireNonNull(yields, "yields");
        Objects.requireNonNull(wakes, "wakes");
        points = List.copyOf(points);
    }

    /** A result without the contended loops' checks, the hand-over and polling-reader checks, the yield check and the wake check. */
    public CalibrationResult(MachineProfile host, double nsPerPause, List<CalibrationPoint> points, HostCosts costs,
            BytecodeCost bytecode, double lineTransferAfterNs) {
        this(host, nsPerPause, points, costs, bytecode, lineTransferAfterNs,
                ContendedCasCheck.unmeasured(ContendedCasCheck.Loop.WORD),
                ContendedCasCheck.unmeasured(ContendedCasCheck.Loop.RING), HandoverCheck.unmeasured(),
                PollingReaderCheck.unmeasured(), YieldCheck.unmeasured(), WakeCheck.unmeasured());
    }

    /** A result without a bytecode measurement and without the second line-transfer measurement. */
    public CalibrationResult(MachineProfile host, double nsPerPause, List<CalibrationPoint> points, HostCosts costs) {
        this(host, nsPerPause, points, costs, BytecodeCost.unmeasured(), Double.NaN);
    }

    /**
     * Whether the line transfer measured after the runs differs from the one before them by more
     * than {@value #LINE_TRANSFER_TOLERANCE}× either way: then the real-thread runs may have met a
     * transfer cost other than the profile's, and points that depend on it (lock and queue
     * hand-overs) compare the simulator with a different machine. False when either is not measured.
     */
    public boolean lineTransferMoved() {
        double before = costs.lineTransferNs();
        double after = lineTransferAfterNs;
        if (!(before > 0) || !(after > 0)) {
            return false;
        }
        return Math.max(before, after) / Math.min(before, after) > LINE_TRANSFER_TOLERANCE;
    }

    /**
     * Spearman's ρ between hardware and simulated scores over every {@linkplain #measurable()
     * measurable} point (workloads × tunings). Scores of different workloads differ by orders of
     * magnitude, so this mostly says whether the simulator orders the workloads as the host
     * does; {@link #tuningOrderAgreement()} looks within each workload.
     */
    public double spearman() {
        List<CalibrationPoint> usable = measurable();
        if (usable.size() < 2) {
            return Double.NaN;
        }
        double[] hw = usable.stream().mapToDouble(CalibrationPoint::hardwareScore).toArray();
        double[] sim = usable.stream().mapToDouble(CalibrationPoint::simulatedScore).toArray();
        return RankCorrelation.spearman(hw, sim);
    }

    /**
     * The 95 % interval of {@link #spearman()} over the {@linkplain #measurable() measurable} points
     * ({@link ConfidenceInterval#spearman}); {@link ConfidenceInterval#NONE} with fewer than four.
     */
    public ConfidenceInterval spearmanInterval() {
        return ConfidenceInterval.spearman(spearman(), measurable().size());
    }

    /**
     * The host against itself: Spearman's ρ, over the {@linkplain #measurable() measurable} points with at
     * least two real-thread runs, between the median of each point's odd-numbered runs (1st, 3rd, ...) and
     * that of its even-numbered ones. The runs go in rounds over a workload's tunings
     * ({@code HostCalibration.interleaved}), so the two halves met the host over the same minutes; how far
     * this falls short of 1 is how far the host's own run-to-run noise reorders the points, and so how high
     * {@link #spearman()} can be expected to reach against it (a split-half reliability). NaN with fewer than
     * two such points.
     */
    public double hostSelfAgreement() {
        List<CalibrationPoint> usable = measurable().stream().filter(p -> p.hardware().values().size() >= 2).toList();
        if (usable.size() < 2) {
            return Double.NaN;
        }
        double[] odd = new double[usable.size()];
        double[] even = new double[usable.size()];
        for (int i = 0; i < usable.size(); i++) {
            List<Double> runs = usable.get(i).hardware().values();
            List<Double> first = new ArrayList<>();
            List<Double> second = new ArrayList<>();
            for (int r = 0; r < runs.size(); r++) {
                (r % 2 == 0 ? first : second).add(runs.get(r));
            }
            odd[i] = Spread.of(first).median();
            even[i] = Spread.of(second).median();
        }
        return RankCorrelation.spearman(odd, even);
    }

    /**
     * The 95 % interval of {@link #hostSelfAgreement()} over the points it ranks ({@link
     * ConfidenceInterval#spearman}); {@link ConfidenceInterval#NONE} with fewer than four.
     */
    public ConfidenceInterval hostSelfAgreementInterval() {
        long n = measurable().stream().filter(p -> p.hardware().values().size() >= 2).count();
        return ConfidenceInterval.spearman(hostSelfAgreement(), (int) n);
    }

    /**
     * The share of {@linkplain #tuningPairs() distinguishable tuning pairs} that the simulator
     * orders as the host does, in [0, 1]; NaN if there is no such pair.
     */
    public double tuningOrderAgreement() {
        Pairs pairs = tuningPairs();
        return pairs.distinguishable() == 0 ? Double.NaN : (double) pairs.orderedAlike() / pairs.distinguishable();
    }

    /**
     * Wilson's 95 % interval of {@link #tuningOrderAgreement()} ({@link ConfidenceInterval#wilson}), the pairs
     * taken as independent trials; they are not quite (three tunings of one workload make three pairs from
     * three points), so the true interval is somewhat wider. {@link ConfidenceInterval#NONE} without a pair.
     */
    public ConfidenceInterval tuningOrderAgreementInterval() {
        Pairs pairs = tuningPairs();
        return ConfidenceInterval.wilson(pairs.orderedAlike(), pairs.distinguishable());
    }

    /**
     * Tuning pairs within each workload, both points measurable: how many there are, how many the host
     * tells apart (one tuning's hardware repetitions rank above the other's by the Mann–Whitney test, two-sided
     * at 5 %: {@link Spread#rankedAbove}), and how many of those the simulator orders the same way by its
     * medians. A pair the host's own run-to-run spread cannot order is left out: no simulator could be
     * judged on it. (Until 2026-12-06 a pair counted only with every run of one tuning above every run of the
     * other and its 95 % interval too, {@link Spread#clearlyAbove}: with ten runs a point, one slow run of this
     * host's, a fifth of its neighbours, left a pair out that the other nineteen runs ordered.)
     */
    public Pairs tuningPairs() {
        int all = 0;
        int distinguishable = 0;
        int alike = 0;
        List<Disagreement> otherwise = new ArrayList<>();
        for (List<CalibrationPoint> points : byWorkload().values()) {
            List<CalibrationPoint> group = points.stream().filter(p -> p.notMeasurable().isEmpty()).toList();
            for (int i = 0; i < group.size(); i++) {
                for (int j = i + 1; j < group.size(); j++) {
                    CalibrationPoint a = group.get(i);
                    CalibrationPoint b = group.get(j);
                    all++;
                    int hardware = a.hardware().rankedAbove(b.hardware()) ? 1
                            : b.hardware().rankedAbove(a.hardware()) ? -1 : 0;
                    if (hardware == 0) {
                        continue;
                    }
                    distinguishable++;
                    if (hardware == Math.signum(a.simulatedScore() - b.simulatedScore())) {
                        alike++;
                    } else {
                        otherwise.add(hardware > 0 ? new Disagreement(a, b) : new Disagreement(b, a));
                    }
                }
            }
        }
        return new Pairs(all, distinguishable, alike, otherwise);
    }

    /**
     * A tuning pair the host tells apart and the simulator orders otherwise (or ties).
     *
     * @param higherOnHost the point whose real runs rank above the other's
     * @param lowerOnHost  the other point of the same workload
     */
    public record Disagreement(CalibrationPoint higherOnHost, CalibrationPoint lowerOnHost) {
        public Disagreement {
            Objects.requireNonNull(higherOnHost, "higherOnHost");
            Objects.requireNonNull(lowerOnHost, "lowerOnHost");
        }

        /**
         * "workload: A above B on this host (real medians), not simulated (simulated medians)", for the
         * calibration's listing.
         */
        public String describe() {
            return String.format(Locale.ROOT, "%s: %s above %s on this host (%.1f against %.1f), not simulated (%.1f "
                    + "against %.1f)", higherOnHost.workload(), higherOnHost.tuning(), lowerOnHost.tuning(),
                    higherOnHost.hardwareScore(), lowerOnHost.hardwareScore(), higherOnHost.simulatedScore(),
                    lowerOnHost.simulatedScore());
        }
    }

    /**
     * Counts of {@link #tuningPairs()}.
     *
     * @param measurable      pairs of two measurable points of one workload
     * @param distinguishable those the host's runs tell apart beyond their spread
     * @param orderedAlike    those the simulator orders as the host does
     * @param orderedOtherwise the others of those the host tells apart, in the order of the points
     */
    public record Pairs(int measurable, int distinguishable, int orderedAlike, List<Disagreement> orderedOtherwise) {
        public Pairs {
            orderedOtherwise = List.copyOf(orderedOtherwise);
            if (orderedAlike + orderedOtherwise.size() != distinguishable) {
                throw new IllegalArgumentException("orderedAlike " + orderedAlike + " + " + orderedOtherwise.size()
                        + " ordered otherwise != distinguishable " + distinguishable);
            }
        }

    }

    /** The points that measured something on both sides (see {@link CalibrationPoint#notMeasurable()}). */
    public List<CalibrationPoint> measurable() {
        return points.stream().filter(p -> p.notMeasurable().isEmpty()).toList();
    }

    /** The points left out of the correlations, with why. */
    public List<CalibrationPoint> notMeasurable() {
        return points.stream().filter(p -> p.notMeasurable().isPresent()).toList();
    }

    /** The points grouped by workload, in order. */
    public Map<String, List<CalibrationPoint>> byWorkload() {
        Map<String, List<CalibrationPoint>> groups = new LinkedHashMap<>();
        for (CalibrationPoint p : points) {
            groups.computeIfAbsent(p.workload(), k -> new ArrayList<>()).add(p);
        }
        return groups;
    }
}
