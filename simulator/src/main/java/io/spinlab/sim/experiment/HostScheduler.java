package io.spinlab.sim.experiment;

import io.spinlab.model.machine.OperatingSystem;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.zip.GZIPInputStream;

/**
 * Which scheduler this host runs, for its profile: the operating system's rules (Windows; Linux's
 * EEVDF from kernel 6.6, CFS before) and, on Linux, the scheduler tick its kernel was built with
 * ({@code CONFIG_HZ}: 250 Hz gives 4 ms, 1000 Hz 1 ms), read from the kernel's configuration, not
 * measured.
 *
 * @param os the rules the simulator applies
 * @param tickNs the scheduler tick, ns, or 0 when no configuration says
 * @param tickSource where the tick was read ({@code CONFIG_HZ=250 in /proc/config.gz}), or why not
 */
public record HostScheduler(OperatingSystem os, long tickNs, String tickSource) {

    private static final Pattern KERNEL_RELEASE = Pattern.compile("^(\\d+)\\.(\\d+)");
    private static final Pattern CONFIG_HZ = Pattern.compile("(?m)^CONFIG_HZ=(\\d+)\\s*$");
    private static final long NS_PER_SECOND = 1_000_000_000L;

    /** This host's: {@code os.name} and {@code os.version}, and on Linux its kernel configuration. */
    public static HostScheduler detect() {
        OperatingSystem os = rules(System.getProperty("os.name", ""), System.getProperty("os.version", ""));
        if (os == OperatingSystem.WINDOWS) {
            return new HostScheduler(os, 0, "not read (Windows)");
        }
        String release = System.getProperty("os.version", "");
        for (Path config : List.of(Path.of("/proc/config.gz"), Path.of("/boot/config-" + release))) {
            Optional<String> text = read(config);
            if (text.isPresent()) {
                long hz = configHz(text.get());
                if (hz > 0) {
                    return new HostScheduler(os, NS_PER_SECOND / hz, "CONFIG_HZ=" + hz + " in " + config);
                }
            }
        }
        return new HostScheduler(os, 0, "no kernel configuration readable (/proc/config.gz, /boot/config-"
                + release + ")");
    }

    /**
     * The simulator's rules for an operating system: Windows' on Windows; on Linux, CFS's before
     * kernel 6.6 and EEVDF's from 6.6 (a version that does not read as one counts as current);
     * Linux's EEVDF elsewhere (macOS and the BSDs are not modelled; their yields are likewise local).
     */
    static OperatingSystem rules(String osName, String osVersion) {
        if (osName.startsWith("Windows")) {
            return OperatingSystem.WINDOWS;
        }
        if (osName.startsWith("Linux") && kernelBeforeEevdf(osVersion)) {
            return OperatingSystem.LINUX_CFS;
        }
        return OperatingSystem.LINUX;
    }

    /** The {@code CONFIG_HZ} a kernel configuration sets, or 0 when it sets none. */
    static long configHz(String config) {
        Matcher m = CONFIG_HZ.matcher(config);
        if (!m.find()) {
            return 0;
        }
        try {
            long hz = Long.parseLong(m.group(1));
            return hz > 0 && hz <= NS_PER_SECOND ? hz : 0;
        } catch (NumberFormatException e) {
            return 0;
        }
    }

    /** Whether this host's profile takes the tick as its time slice: Linux's EEVDF, with a tick read. */
    public boolean setsTimeSlice() {
        return os == OperatingSystem.LINUX && tickNs > 0;
    }

    /** Whether a Linux kernel release such as {@code 5.15.0-91-generic} is older than 6.6. */
    private static boolean kernelBeforeEevdf(String release) {
        Matcher m = KERNEL_RELEASE.matcher(release.strip());
        if (!m.find()) {
            return false;
        }
        int major = Integer.parseInt(m.group(1));
        int minor = Integer.parseInt(m.group(2));
        return major < 6 || (major == 6 && minor < 6);
    }

    /** A kernel configuration file's text, gunzipped where it is a {@code .gz}; empty when unreadable. */
    private static Optional<String> read(Path config) {
        if (!Files.isReadable(config)) {
            return Optional.empty();
        }
        try (InputStream raw = Files.newInputStream(config);
             InputStream in = config.toString().endsWith(".gz") ? new GZIPInputStream(raw) : raw) {
            return Optional.of(new String(in.readAllBytes(), StandardCharsets.UTF_8));
        } catch (IOException e) {
            return Optional.empty();
        }
    }
}
