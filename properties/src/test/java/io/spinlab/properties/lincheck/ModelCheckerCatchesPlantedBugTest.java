package io.spinlab.properties.lincheck;

import org.jetbrains.lincheck.datastructures.Options;

/** The model checker rejects every planted bug. */
public class ModelCheckerCatchesPlantedBugTest extends PlantedBugContract {
    @Override
    Options<?, ?> checker() {
        return LincheckBudget.modelChecking();
    }
}
