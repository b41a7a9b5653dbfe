package io.spinlab.junit;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A user who forgets Surefire's {@code argLine} gets one line saying what to add: the fixture
 * run in a JVM without {@code --add-opens java.base/java.lang=ALL-UNNAMED}.
 */
class MissingOpensTest {

    @Test
    void shouldFailEveryInvocationWithOneLineNamingTheOptionWhenJavaLangIsNotOpen() throws Exception {
        String output = runWithoutOpens();

        Matcher failures = Pattern.compile("failures: (\\d+)").matcher(output);
        assertThat(failures.find()).as(output).isTrue();
        // One failure, of the test template itself: no invocation starts without the option.
        assertThat(Integer.parseInt(failures.group(1))).as(output).isEqualTo(1);
        Matcher message = Pattern.compile("<<<(.*?)>>>", Pattern.DOTALL).matcher(output);
        List<String> messages = new ArrayList<>();
        while (message.find()) {
            messages.add(message.group(1));
        }
        assertThat(messages).containsExactly("java.lang.IllegalStateException: spinlab-junit needs --add-opens "
                + "java.base/java.lang=ALL-UNNAMED on the test JVM: add it to Surefire's argLine (<argLine>--add-opens "
                + "java.base/java.lang=ALL-UNNAMED</argLine>)");
        assertThat(output).doesNotContain("nothing was simulated");
    }

    @Test
    void shouldPassTheCheckInThisJvmWhichHasTheOption() {
        TestJvm.requireSimulator();
    }

    private static String runWithoutOpens() throws IOException, InterruptedException {
        Path java = Path.of(System.getProperty("java.home"), "bin", "java");
        ProcessBuilder builder = new ProcessBuilder(java.toString(), "-cp", System.getProperty("java.class.path"),
                MissingOpensMain.class.getName()).redirectErrorStream(true);
        builder.environment().remove("JAVA_TOOL_OPTIONS");
        builder.environment().remove("JDK_JAVA_OPTIONS");
        Process process = builder.start();
        byte[] bytes = process.getInputStream().readAllBytes();
        assertThat(process.waitFor(60, TimeUnit.SECONDS)).as("the child JVM ended").isTrue();
        String output = new String(bytes, StandardCharsets.UTF_8);
        assertThat(process.exitValue()).as(output).isZero();
        return output;
    }
}
