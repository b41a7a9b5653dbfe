package io.spinlab.junit;

import org.junit.platform.engine.TestExecutionResult;
import org.junit.platform.testkit.engine.EngineTestKit;
import org.junit.platform.testkit.engine.Event;

import java.util.List;

import static org.junit.platform.engine.discovery.DiscoverySelectors.selectMethod;

/**
 * Run by {@link MissingOpensTest} in a JVM started without {@code --add-opens}: runs the
 * correct-lock fixture through JUnit and prints each failure's class and message, one per line,
 * between markers.
 */
public final class MissingOpensMain {

    private MissingOpensMain() {
    }

    public static void main(String[] args) {
        List<Event> failed = EngineTestKit.engine("junit-jupiter")
                .selectors(selectMethod("io.spinlab.junitfixtures.LockFixtures#ttasLockStaysExclusive(io.spinlab.junit.Sim)"))
                .execute()
                .allEvents().failed().list();
        System.out.println("failures: " + failed.size());
        for (Event event : failed) {
            Throwable thrown = event.getPayload(TestExecutionResult.class).orElseThrow().getThrowable().orElseThrow();
            System.out.println("<<<" + thrown.getClass().getName() + ": " + thrown.getMessage() + ">>>");
        }
    }
}
