package io.spinlab.junit;

import io.spinlab.sim.engine.Simulation;

/** Checks, before anything runs, that the test JVM can run simulations, and says how to fix it when not. */
final class TestJvm {

    private TestJvm() {
    }

    /**
     * @throws IllegalStateException one line: what the JVM lacks and, for the missing option,
     *                               where a Maven build puts it
     */
    static void requireSimulator() {
        try {
            Simulation.requireAvailable();
        } catch (IllegalStateException e) {
            String reason = e.getMessage();
            if (reason.contains("--add-opens")) {
                throw new IllegalStateException("spinlab-junit needs --add-opens java.base/java.lang=ALL-UNNAMED on the "
                        + "test JVM: add it to Surefire's argLine (<argLine>--add-opens "
                        + "java.base/java.lang=ALL-UNNAMED</argLine>)", e);
            }
            throw new IllegalStateException("spinlab-junit: " + reason, e);
        }
    }
}
