package io.spinlab.reports.report;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.stream.Collectors;

/**
 * How a report was produced, beyond what its rows say (the rows carry their seeds and the
 * simulator mode): the command line, the spinlab version and commit, the JDK, when it ran and
 * how long it took.
 *
 * <p>Only {@link #date()} and {@link #wallTime()} change from one run of the same command to
 * the next; a report of the same inputs is otherwise byte for byte the same, so tests fix these
 * two (see {@link #fixed}).
 *
 * @param command  the command line, as a shell would take it back
 * @param version  the spinlab version
 * @param commit   the source commit the command was built from, or {@code unknown}
 * @param jdk      the JDK that ran it: vendor and runtime version
 * @param date     when the report was written, to the second
 * @param wallTime how long the runs took, real time
 */
public record Provenance(String command, String version, String commit, String jdk, Instant date,
                         Duration wallTime) {

    /** The system property the {@code ./spinlab} launcher sets to the commit it built from. */
    public static final String COMMIT_PROPERTY = "spinlab.commit";

    /** The version when the classes do not come from the built jar (tests, an IDE). */
    public static final String DEVELOPMENT_VERSION = "development build";

    public Provenance {
        Objects.requireNonNull(command, "command");
        Objects.requireNonNull(version, "version");
        Objects.requireNonNull(commit, "commit");
        Objects.requireNonNull(jdk, "jdk");
        Objects.requireNonNull(date, "date");
        Objects.requireNonNull(wallTime, "wallTime");
    }

    /**
     * The provenance of this process: {@code spinlab} followed by {@code args}, the version in the
     * jar's manifest, the commit from {@value #COMMIT_PROPERTY}, this JDK, now on {@code clock}.
     */
    public static Provenance capture(List<String> args, Duration wallTime, Clock clock) {
        String version = Provenance.class.getPackage().getImplementationVersion();
        return new Provenance(commandLine(args), version == null ? DEVELOPMENT_VERSION : version,
                System.getProperty(COMMIT_PROPERTY, "unknown"),
                System.getProperty("java.vm.vendor", "?") + " " + System.getProperty("java.runtime.version", "?"),
                clock.instant().truncatedTo(ChronoUnit.SECONDS), wallTime);
    }

    /** A provenance with every field given, for tests and reproducible examples. */
    public static Provenance fixed(List<String> args, String version, String commit, String jdk, Instant date,
            Duration wallTime) {
        return new Provenance(commandLine(args), version, commit, jdk, date, wallTime);
    }

    /** {@code spinlab} and the arguments, each quoted for a POSIX shell where it needs it. */
    static String commandLine(List<String> args) {
        return "spinlab" + args.stream().map(a -> " " + shellQuote(a)).collect(Collectors.joining());
    }

    private static String shellQuote(String arg) {
        if (!arg.isEmpty() && arg.chars().allMatch(c -> Character.isLetterOrDigit(c) || "-_=.,/:@%+".indexOf(c) >= 0)) {
            return arg;
        }
        return "'" + arg.replace("'", "'\\''") + "'";
    }

    /** The wall time as text: {@code 3.2 s}, {@code 3 min 28 s}. */
    public String wallTimeText() {
        long millis = wallTime.toMillis();
        if (millis < 60_000) {
            return String.format(Locale.ROOT, "%.1f s", millis / 1000.0);
        }
        return (millis / 60_000) + " min " + (millis % 60_000) / 1000 + " s";
    }
}
