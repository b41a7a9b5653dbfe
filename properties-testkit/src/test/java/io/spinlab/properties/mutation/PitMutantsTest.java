package io.spinlab.properties.mutation;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * PIT's mutants rebuilt on {@link PitFixture}: the report's entries are written as PIT writes them
 * (class, method, descriptor, line, mutator, the instruction's position in ASM's list plus one), and
 * each rebuilt mutant, applied to the class file and loaded, behaves as PIT's mutant of that line.
 */
class PitMutantsTest {

    private static String mutation(boolean detected, String status, String method, String descriptor, int line,
            String mutator, int index) {
        return """
                <mutation detected='%s' status='%s' numberOfTestsRun='1'>
                  <sourceFile>PitFixture.java</sourceFile>
                  <mutatedClass>io.spinlab.properties.mutation.PitFixture</mutatedClass>
                  <mutatedMethod>%s</mutatedMethod>
                  <methodDescription>%s</methodDescription>
                  <lineNumber>%d</lineNumber>
                  <mutator>org.pitest.mutationtest.engine.gregor.mutators.%s</mutator>
                  <indexes><index>%d</index></indexes>
                  <blocks><block>0</block></blocks>
                  <killingTest/>
                  <description>a mutant</description>
                </mutation>
                """.formatted(detected, status, method, descriptor, line, mutator, index);
    }

    private static List<PitMutants.Entry> report(Path dir) throws IOException {
        String xml = "<?xml version='1.0' encoding='UTF-8'?>\n<mutations partial='false'>\n"
                + mutation(false, "SURVIVED", "difference", "(II)I", 8, "RemoveConditionalMutator_ORDER_ELSE", 5)
                + mutation(false, "SURVIVED", "difference", "(II)I", 8, "ConditionalsBoundaryMutator", 5)
                + mutation(false, "NO_COVERAGE", "difference", "(II)I", 9, "MathMutator", 10)
                + mutation(false, "SURVIVED", "isPositive", "(I)Z", 15, "BooleanTrueReturnValsMutator", 12)
                + mutation(false, "SURVIVED", "touch", "()I", 20, "VoidMethodCallMutator", 12)
                + mutation(false, "SURVIVED", "difference", "(II)I", 11, "MathMutator", 10)
                + mutation(false, "SURVIVED", "difference", "(II)I", 9, "InvertNegsMutator", 10)
                + mutation(true, "KILLED", "difference", "(II)I", 11, "MathMutator", 17)
                + mutation(false, "SURVIVED", "countDown", "(I)I", 30, "IncrementsMutator", 7)
                + "</mutations>\n";
        Path file = dir.resolve("mutations.xml");
        Files.writeString(file, xml);
        return PitMutants.read(file);
    }

    private static Object mutant(Mutation mutation) throws Exception {
        byte[] original;
        try (InputStream in = PitFixture.class.getResourceAsStream("PitFixture.class")) {
            original = in.readAllBytes();
        }
        byte[] changed = mutation.applyTo(original);
        ClassLoader loader = new ClassLoader(null) {
            @Override
            protected Class<?> findClass(String name) throws ClassNotFoundException {
                if (name.equals(PitFixture.class.getName())) {
                    return defineClass(name, changed, 0, changed.length);
                }
                throw new ClassNotFoundException(name);
            }
        };
        return loader.loadClass(PitFixture.class.getName()).getConstructor().newInstance();
    }

    private static Object call(Object target, String method, Object... args) throws Exception {
        Class<?>[] types = new Class<?>[args.length];
        java.util.Arrays.fill(types, int.class);
        return target.getClass().getMethod(method, types).invoke(target, args);
    }

    @Test
    void shouldReadEveryMutantOfTheReportWithItsStatus(@TempDir Path dir) throws IOException {
        List<PitMutants.Entry> entries = report(dir);
        assertThat(entries).hasSize(9);
        assertThat(entries.get(0).mutatorName()).isEqualTo("RemoveConditionalMutator_ORDER_ELSE");
        assertThat(entries.get(2)).extracting(PitMutants.Entry::status, PitMutants.Entry::line,
                PitMutants.Entry::index).containsExactly("NO_COVERAGE", 9, 10);
        assertThat(entries.stream().filter(PitMutants.Entry::detected)).hasSize(1);
    }

    @Test
    void shouldRebuildEachMutantOnTheInstructionPitNamed(@TempDir Path dir) throws Exception {
        List<PitMutants.Entry> entries = report(dir);
        ClassLoader loader = getClass().getClassLoader();
        List<PitMutants.Rebuilt> rebuilt = entries.stream().map(e -> PitMutants.rebuild(e, loader)).toList();

        assertThat(rebuilt.get(0).mutation()).isEqualTo(
                Mutation.branchAlwaysTaken(PitFixture.class, "difference(II)I", "IF_ICMPLE", 0));
        assertThat(call(mutant(rebuilt.get(0).mutation()), "difference", 5, 3)).isEqualTo(-2);
        assertThat(rebuilt.get(1).mutation()).isEqualTo(
                Mutation.opcodeReplaced(PitFixture.class, "difference(II)I", "IF_ICMPLE", "IF_ICMPLT", 0));
        assertThat(call(mutant(rebuilt.get(1).mutation()), "difference", 3, 3)).isEqualTo(0);
        assertThat(rebuilt.get(2).mutation()).isEqualTo(
                Mutation.opcodeReplaced(PitFixture.class, "difference(II)I", "ISUB", "IADD", 0));
        assertThat(call(mutant(rebuilt.get(2).mutation()), "difference", 5, 3)).isEqualTo(8);
        assertThat(call(mutant(rebuilt.get(2).mutation()), "difference", 3, 5)).isEqualTo(2);
        assertThat(rebuilt.get(3).mutation()).isEqualTo(Mutation.returnsTrue(PitFixture.class, "isPositive(I)Z", 0));
        assertThat(call(mutant(rebuilt.get(3).mutation()), "isPositive", -1)).isEqualTo(true);
        assertThat(rebuilt.get(4).mutation()).isEqualTo(Mutation.callRemoved(PitFixture.class, "touch()I", "record", 0));
        assertThat(call(mutant(rebuilt.get(4).mutation()), "touch")).isEqualTo(1);
        assertThat(call(new PitFixture(), "touch")).isEqualTo(11);
        assertThat(PitMutants.rebuild(entries.get(8), loader).mutation()).isEqualTo(
                Mutation.incrementNegated(PitFixture.class, "countDown(I)I", 0));
        assertThat(call(mutant(PitMutants.rebuild(entries.get(8), loader).mutation()), "countDown", 5)).isEqualTo(6);
        assertThat(call(new PitFixture(), "countDown", 5)).isEqualTo(4);
    }

    @Test
    void shouldRefuseAnIndexThatNoLongerLandsOnItsLineAndAMutatorWithoutAKind(@TempDir Path dir) throws IOException {
        List<PitMutants.Entry> entries = report(dir);
        ClassLoader loader = getClass().getClassLoader();
        PitMutants.Rebuilt stale = PitMutants.rebuild(entries.get(5), loader);
        assertThat(stale.ok()).isFalse();
        assertThat(stale.whyNot()).isEqualTo("stale: index 10 is not an instruction of line 11");
        PitMutants.Rebuilt unknown = PitMutants.rebuild(entries.get(6), loader);
        assertThat(unknown.ok()).isFalse();
        assertThat(unknown.whyNot()).startsWith("no Mutation kind for InvertNegsMutator");
    }

    @Test
    void shouldNameWhatIsWrongWithAFileThatIsNotAReport(@TempDir Path dir) throws IOException {
        Path file = dir.resolve("mutations.xml");
        Files.writeString(file, "<mutations><mutation/></mutations>");
        assertThatThrownBy(() -> PitMutants.read(file)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("is not a PIT mutations.xml").hasMessageContaining("<mutatedClass>");
    }
}
