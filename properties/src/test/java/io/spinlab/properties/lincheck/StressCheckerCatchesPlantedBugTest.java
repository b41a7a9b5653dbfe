package io.spinlab.properties.lincheck;

import org.junit.jupiter.api.Timeout;
import java.util.concurrent.TimeUnit;

import org.jetbrains.lincheck.datastructures.Options;

/** The stress checker rejects every planted bug. */
@Timeout(value = 10, unit = TimeUnit.MINUTES) // long on purpose: above the module's 60 s default
public class StressCheckerCatchesPlantedBugTest extends PlantedBugContract {
    @Override
    Options<?, ?> checker() {
        return LincheckBudget.stress();
    }
}
