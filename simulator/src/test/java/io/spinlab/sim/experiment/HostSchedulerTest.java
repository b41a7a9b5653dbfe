package io.spinlab.sim.experiment;

import io.spinlab.model.machine.OperatingSystem;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** The host's scheduler rules by operating system and kernel version, and its tick from the kernel configuration. */
class HostSchedulerTest {

    @Test
    void shouldFollowTheHostOperatingSystemsSchedulerRules() {
        assertThat(HostScheduler.rules("Windows 11", "10.0")).isEqualTo(OperatingSystem.WINDOWS);
        assertThat(HostScheduler.rules("Linux", "6.18.44")).isEqualTo(OperatingSystem.LINUX);
        assertThat(HostScheduler.rules("Linux", "6.6.0-14-generic")).isEqualTo(OperatingSystem.LINUX);
        assertThat(HostScheduler.rules("Linux", "6.5.0-44-generic")).as("CFS").isEqualTo(OperatingSystem.LINUX_CFS);
        assertThat(HostScheduler.rules("Linux", "5.15.0-91-generic")).isEqualTo(OperatingSystem.LINUX_CFS);
        assertThat(HostScheduler.rules("Linux", "4.18.0-553.el8")).isEqualTo(OperatingSystem.LINUX_CFS);
        assertThat(HostScheduler.rules("Linux", "unknown")).isEqualTo(OperatingSystem.LINUX);
        assertThat(HostScheduler.rules("Mac OS X", "14.5")).isEqualTo(OperatingSystem.LINUX);
    }

    @Test
    void shouldReadTheTickFromTheKernelConfigurationsHzLineOnly() {
        String config = "# CONFIG_HZ_100 is not set\nCONFIG_HZ_250=y\n# CONFIG_HZ_1000 is not set\nCONFIG_HZ=250\n"
                + "CONFIG_SCHED_HRTICK=y\n";

        assertThat(HostScheduler.configHz(config)).isEqualTo(250);
        assertThat(HostScheduler.configHz("CONFIG_HZ_1000=y\nCONFIG_HZ=1000\n")).isEqualTo(1000);
        assertThat(HostScheduler.configHz("CONFIG_HZ_250=y\n")).as("no CONFIG_HZ line").isZero();
        assertThat(HostScheduler.configHz("CONFIG_HZ=0\n")).isZero();
        assertThat(HostScheduler.configHz("")).isZero();
    }

    @Test
    void shouldSetTheTimeSliceOnlyUnderEevdfWithATickRead() {
        assertThat(new HostScheduler(OperatingSystem.LINUX, 4_000_000, "CONFIG_HZ=250 in /proc/config.gz")
                .setsTimeSlice()).isTrue();
        assertThat(new HostScheduler(OperatingSystem.LINUX, 0, "none").setsTimeSlice()).isFalse();
        assertThat(new HostScheduler(OperatingSystem.LINUX_CFS, 4_000_000, "x").setsTimeSlice()).isFalse();
        assertThat(new HostScheduler(OperatingSystem.WINDOWS, 0, "x").setsTimeSlice()).isFalse();
    }
}
