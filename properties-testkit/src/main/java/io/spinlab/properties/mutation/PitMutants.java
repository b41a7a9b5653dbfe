package io.spinlab.properties.mutation;

import org.objectweb.asm.ClassReader;
import org.objectweb.asm.Opcodes;
import org.objectweb.asm.tree.AbstractInsnNode;
import org.objectweb.asm.tree.ClassNode;
import org.objectweb.asm.tree.JumpInsnNode;
import org.objectweb.asm.tree.LineNumberNode;
import org.objectweb.asm.tree.MethodInsnNode;
import org.objectweb.asm.tree.MethodNode;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;

import javax.xml.parsers.DocumentBuilderFactory;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * PIT's mutants as {@link Mutation}s: reads the {@code mutations.xml} of a PIT run and rebuilds
 * each mutant on the real class, so that a mutant PIT could only run against impl's tests can be
 * planted in the simulator's and Lincheck's suites (which PIT cannot reach: the simulator defines
 * guest classes from their class files, and the suites sit in another module).
 *
 * <p>PIT names a mutant by class, method, descriptor, mutator and an instruction index: the
 * position of the mutated instruction in ASM's instruction list of the method, labels, line
 * numbers and frames included, plus one (checked against every survivor of impl/MUTATION.md's ninth
 * and tenth measurements). A mutant whose index no longer lands on an instruction of its line (the
 * class changed since the run) is reported stale, not guessed.
 */
public final class PitMutants {
    private PitMutants() {
    }

    /** One mutant of a PIT report. */
    public record Entry(String status, boolean detected, String className, String method, String descriptor,
                        int line, String mutator, int index, String description) {

        /** The mutator's simple name, e.g. {@code RemoveConditionalMutator_EQUAL_ELSE}. */
        public String mutatorName() {
            return mutator.substring(mutator.lastIndexOf('.') + 1);
        }

        @Override
        public String toString() {
            return className.substring(className.lastIndexOf('.') + 1) + "." + method + " L" + line + " "
                    + mutatorName() + " #" + index + " (" + status + ")";
        }
    }

    /** A mutant rebuilt, or why it could not be. */
    public record Rebuilt(Entry entry, Mutation mutation, String whyNot) {
        public boolean ok() {
            return mutation != null;
        }
    }

    /** Every mutant of a PIT {@code mutations.xml}. */
    public static List<Entry> read(Path mutationsXml) {
        try {
            DocumentBuilderFactory factory = DocumentBuilderFactory.newInstance();
            factory.setFeature("http://apache.org/xml/features/disallow-doctype-decl", true);
            Document document = factory.newDocumentBuilder().parse(mutationsXml.toFile());
            NodeList nodes = document.getDocumentElement().getElementsByTagName("mutation");
            List<Entry> entries = new ArrayList<>(nodes.getLength());
            for (int i = 0; i < nodes.getLength(); i++) {
                Element m = (Element) nodes.item(i);
                entries.add(new Entry(m.getAttribute("status"), Boolean.parseBoolean(m.getAttribute("detected")),
                        text(m, "mutatedClass"), text(m, "mutatedMethod"), text(m, "methodDescription"),
                        Integer.parseInt(text(m, "lineNumber")), text(m, "mutator"),
                        Integer.parseInt(text(m, "index")), text(m, "description")));
            }
            return entries;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (Exception e) {
            throw new IllegalArgumentException(mutationsXml + " is not a PIT mutations.xml: " + e.getMessage(), e);
        }
    }

    private static String text(Element parent, String tag) {
        NodeList found = parent.getElementsByTagName(tag);
        if (found.getLength() == 0) {
            throw new IllegalArgumentException("a mutation without <" + tag + ">");
        }
        return found.item(0).getTextContent().trim();
    }

    /** PIT's conditionals-boundary pairs: a strict comparison made non-strict and back. */
    private static final Map<Integer, Integer> BOUNDARY = Map.ofEntries(
            Map.entry(Opcodes.IFLT, Opcodes.IFLE), Map.entry(Opcodes.IFLE, Opcodes.IFLT),
            Map.entry(Opcodes.IFGT, Opcodes.IFGE), Map.entry(Opcodes.IFGE, Opcodes.IFGT),
            Map.entry(Opcodes.IF_ICMPLT, Opcodes.IF_ICMPLE), Map.entry(Opcodes.IF_ICMPLE, Opcodes.IF_ICMPLT),
            Map.entry(Opcodes.IF_ICMPGT, Opcodes.IF_ICMPGE), Map.entry(Opcodes.IF_ICMPGE, Opcodes.IF_ICMPGT));

    /** PIT's math mutator: each arithmetic instruction and the one it becomes. */
    private static final Map<Integer, Integer> MATH = Map.ofEntries(
            Map.entry(Opcodes.IADD, Opcodes.ISUB), Map.entry(Opcodes.ISUB, Opcodes.IADD),
            Map.entry(Opcodes.IMUL, Opcodes.IDIV), Map.entry(Opcodes.IDIV, Opcodes.IMUL),
            Map.entry(Opcodes.IREM, Opcodes.IMUL), Map.entry(Opcodes.IAND, Opcodes.IOR),
            Map.entry(Opcodes.IOR, Opcodes.IAND), Map.entry(Opcodes.IXOR, Opcodes.IAND),
            Map.entry(Opcodes.ISHL, Opcodes.ISHR), Map.entry(Opcodes.ISHR, Opcodes.ISHL),
            Map.entry(Opcodes.IUSHR, Opcodes.ISHL),
            Map.entry(Opcodes.LADD, Opcodes.LSUB), Map.entry(Opcodes.LSUB, Opcodes.LADD),
            Map.entry(Opcodes.LMUL, Opcodes.LDIV), Map.entry(Opcodes.LDIV, Opcodes.LMUL),
            Map.entry(Opcodes.LREM, Opcodes.LMUL), Map.entry(Opcodes.LAND, Opcodes.LOR),
            Map.entry(Opcodes.LOR, Opcodes.LAND), Map.entry(Opcodes.LXOR, Opcodes.LAND),
            Map.entry(Opcodes.LSHL, Opcodes.LSHR), Map.entry(Opcodes.LSHR, Opcodes.LSHL),
            Map.entry(Opcodes.LUSHR, Opcodes.LSHL),
            Map.entry(Opcodes.DADD, Opcodes.DSUB), Map.entry(Opcodes.DSUB, Opcodes.DADD),
            Map.entry(Opcodes.DMUL, Opcodes.DDIV), Map.entry(Opcodes.DDIV, Opcodes.DMUL),
            Map.entry(Opcodes.DREM, Opcodes.DDIV));

    /**
     * The mutant of {@code entry} as a {@link Mutation} of the class the test class path holds, or
     * why not: an unknown class, a stale index, or a mutator {@link Mutation} has no kind for.
     */
    public static Rebuilt rebuild(Entry entry, ClassLoader loader) {
        Class<?> target;
        try {
            target = Class.forName(entry.className(), false, loader);
        } catch (ClassNotFoundException e) {
            return new Rebuilt(entry, null, "no class " + entry.className() + " on the class path");
        }
        ClassNode node = new ClassNode();
        String resource = entry.className().replace('.', '/') + ".class";
        try (InputStream in = loader.getResourceAsStream(resource)) {
            if (in == null) {
                return new Rebuilt(entry, null, "no class file " + resource);
            }
            new ClassReader(in.readAllBytes()).accept(node, 0); // frames kept: PIT's index counts them
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        String signature = entry.method() + entry.descriptor();
        MethodNode method = node.methods.stream().filter(m -> (m.name + m.desc).equals(signature)).findFirst()
                .orElse(null);
        if (method == null) {
            return new Rebuilt(entry, null, "no method " + signature);
        }
        int position = entry.index() - 1;
        if (position < 0 || position >= method.instructions.size()) {
            return new Rebuilt(entry, null, "stale: index " + entry.index() + " outside the method");
        }
        AbstractInsnNode insn = method.instructions.get(position);
        if (insn.getOpcode() < 0 || lineOf(insn) != entry.line()) {
            return new Rebuilt(entry, null, "stale: index " + entry.index() + " is not an instruction of line "
                    + entry.line());
        }
        String name = entry.mutatorName();
        Mutation.Kind kind;
        String anchor;
        int opcode = insn.getOpcode();
        if (name.startsWith("RemoveConditionalMutator_") && insn instanceof JumpInsnNode) {
            // _ELSE: the condition replaced so that the else branch always runs, the jump always taken.
            kind = name.endsWith("_ELSE") ? Mutation.Kind.BRANCH_ALWAYS_TAKEN : Mutation.Kind.BRANCH_NEVER_TAKEN;
            anchor = opcodeName(opcode);
        } else if (name.equals("ConditionalsBoundaryMutator") && BOUNDARY.containsKey(opcode)) {
            kind = Mutation.Kind.OPCODE_REPLACED;
            anchor = opcodeName(opcode) + ">" + opcodeName(BOUNDARY.get(opcode));
        } else if (name.equals("MathMutator") && MATH.containsKey(opcode)) {
            kind = Mutation.Kind.OPCODE_REPLACED;
            anchor = opcodeName(opcode) + ">" + opcodeName(MATH.get(opcode));
        } else if (name.equals("VoidMethodCallMutator") && insn instanceof MethodInsnNode call) {
            kind = Mutation.Kind.CALL_REMOVED;
            anchor = call.name;
        } else if (name.equals("BooleanTrueReturnValsMutator") && opcode == Opcodes.IRETURN) {
            kind = Mutation.Kind.RETURNS_TRUE;
            anchor = "IRETURN";
        } else if (name.equals("BooleanFalseReturnValsMutator") && opcode == Opcodes.IRETURN) {
            kind = Mutation.Kind.RETURNS_FALSE;
            anchor = "IRETURN";
        } else if (name.equals("NullReturnValsMutator") && opcode == Opcodes.ARETURN) {
            kind = Mutation.Kind.RETURNS_NULL;
            anchor = "ARETURN";
        } else if (name.equals("IncrementsMutator") && opcode == Opcodes.IINC) {
            kind = Mutation.Kind.INCREMENT_NEGATED;
            anchor = "IINC";
        } else if (name.equals("PrimitiveReturnsMutator")
                && (opcode == Opcodes.IRETURN || opcode == Opcodes.LRETURN)) {
            kind = Mutation.Kind.RETURNS_ZERO;
            anchor = opcodeName(opcode);
        } else {
            return new Rebuilt(entry, null, "no Mutation kind for " + name + " at opcode " + opcode);
        }
        Mutation probe = new Mutation(target, signature, kind, anchor, 0);
        int occurrence = probe.sites(method).indexOf(insn);
        if (occurrence < 0) {
            return new Rebuilt(entry, null, "the instruction is not a site of " + probe);
        }
        return new Rebuilt(entry, new Mutation(target, signature, kind, anchor, occurrence), null);
    }

    private static int lineOf(AbstractInsnNode insn) {
        for (AbstractInsnNode p = insn; p != null; p = p.getPrevious()) {
            if (p instanceof LineNumberNode line) {
                return line.line;
            }
        }
        return -1;
    }

    private static String opcodeName(int opcode) {
        for (java.lang.reflect.Field field : Opcodes.class.getFields()) {
            try {
                if (field.getType() == int.class && field.getInt(null) == opcode && field.getName().matches("[A-Z_0-9]+")
                        && !field.getName().startsWith("ACC_") && !field.getName().startsWith("T_")
                        && !field.getName().startsWith("H_") && !field.getName().startsWith("F_")
                        && !field.getName().startsWith("V") && !field.getName().startsWith("ASM")
                        && !field.getName().startsWith("SOURCE_")) {
                    return field.getName();
                }
            } catch (IllegalAccessException e) {
                throw new IllegalStateException(e);
            }
        }
        throw new IllegalArgumentException("no opcode " + opcode);
    }
}
