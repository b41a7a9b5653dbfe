package io.spinlab.properties.lincheck;

import org.jetbrains.lincheck.datastructures.Options;

/** The stress checker rejects every planted bug. */
public class StressCheckerCatchesPlantedBugTest extends PlantedBugContract {
    @Override
    Options<?, ?> checker() {
        return LincheckBudget.stress();
    }
}
