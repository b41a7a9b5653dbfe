package io.spinlab.reports.bench;

import java.util.Objects;

/**
 * The naming convention that pairs each spinlab benchmark with its JDK peer.
 *
 * <p>A benchmark method, or a {@code @Group} of methods, is named {@code side_subject_scenario}:
 * <ul>
 *   <li>{@code side}: {@code spinlab} (our primitive) or {@code peer} (the JDK baseline);</li>
 *   <li>{@code subject}: what runs, in camelCase without underscores ({@code spinLockTracking},
 *       {@code reentrantLock});</li>
 *   <li>{@code scenario}: the workload, camelCase ({@code uncontended}, {@code contended},
 *       {@code handoff}).</li>
 * </ul>
 * Within one benchmark class and for equal {@code @Param} values, every {@code spinlab_X_S} is
 * compared with the one {@code peer_Y_S}: a class has exactly one peer per scenario and any
 * number of spinlab subjects, all measured in the same JMH run.
 *
 * @param benchmarkClass the simple name of the benchmark class
 * @param side spinlab or peer
 * @param subject what runs
 * @param scenario the workload, the pairing key within the class
 */
public record BenchName(String benchmarkClass, Side side, String subject, String scenario) {

    /** The two sides of a pair. */
    public enum Side {
        SPINLAB("spinlab"),
        PEER("peer");

        private final String prefix;

        Side(String prefix) {
            this.prefix = prefix;
        }

        /** The method-name prefix of this side. */
        public String prefix() {
            return prefix;
        }
    }

    public BenchName {
        Objects.requireNonNull(benchmarkClass, "benchmarkClass");
        Objects.requireNonNull(side, "side");
        Objects.requireNonNull(subject, "subject");
        Objects.requireNonNull(scenario, "scenario");
    }

    /**
     * Parses a JMH benchmark name, {@code [package.]Class.side_subject_scenario}.
     *
     * @throws IllegalArgumentException if the name does not follow the convention; the message
     *         names the benchmark and the expected form
     */
    public static BenchName parse(String benchmark) {
        Objects.requireNonNull(benchmark, "benchmark");
        int lastDot = benchmark.lastIndexOf('.');
        if (lastDot <= 0 || lastDot == benchmark.length() - 1) {
            throw malformed(benchmark, "expected Class.method");
        }
        String qualifiedClass = benchmark.substring(0, lastDot);
        String simpleClass = qualifiedClass.substring(qualifiedClass.lastIndexOf('.') + 1);
        String method = benchmark.substring(lastDot + 1);
        String[] parts = method.split("_", -1);
        if (parts.length != 3 || parts[1].isEmpty() || parts[2].isEmpty()) {
            throw malformed(benchmark, "the method or group name must have three parts, side_subject_scenario");
        }
        Side side = switch (parts[0]) {
            case "spinlab" -> Side.SPINLAB;
            case "peer" -> Side.PEER;
            default -> throw malformed(benchmark, "side '" + parts[0] + "' must be 'spinlab' or 'peer'");
        };
        return new BenchName(simpleClass, side, parts[1], parts[2]);
    }

    private static IllegalArgumentException malformed(String benchmark, String why) {
        return new IllegalArgumentException("benchmark '" + benchmark + "' breaks the pairing convention "
                + "Class.side_subject_scenario (side = spinlab or peer): " + why);
    }

    /** {@code Class.scenario}: the pair this benchmark belongs to, before parameters. */
    public String pairLabel() {
        return benchmarkClass + "." + scenario;
    }
}
