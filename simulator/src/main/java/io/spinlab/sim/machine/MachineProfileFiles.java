package io.spinlab.sim.machine;

import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.StreamReadFeature;
import com.fasterxml.jackson.core.StreamWriteFeature;
import com.fasterxml.jackson.core.util.DefaultIndenter;
import com.fasterxml.jackson.core.util.DefaultPrettyPrinter;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLGenerator;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import io.spinlab.model.machine.MachineField;
import io.spinlab.model.machine.MachinePresets;
import io.spinlab.model.machine.MachineProfile;
import java.io.IOException;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;

/**
 * Reads and writes {@link MachineProfile}s as JSON or YAML files.
 *
 * <p>A file is one object whose keys are the profile's fields as {@link MachineField} names
 * them, plus an optional {@code base}:
 * <pre>{@code
 * {
 *   "base": "skylake-i7-6700",
 *   "name": "skylake-pause-300",
 *   "description": "Skylake with a 300-cycle PAUSE",
 *   "pauseCycles": 300
 * }
 * }</pre>
 * <ul>
 *   <li>{@code name} is always required.</li>
 *   <li>With {@code base} (a {@linkplain MachinePresets preset} name), the profile starts from
 *       that preset and the file overrides some fields. Setting only one of
 *       {@code physicalCores} and {@code logicalProcessors} keeps the preset's threads per core
 *       (see {@link MachineProfile.Builder}).</li>
 *   <li>Without {@code base}, every field must be given except {@code description}
 *       (default empty), {@code cacheLineBytes} (default 64), {@code cyclesPerBytecode}
 *       (default 0.2), {@code storeBytesPerCycle} (default 32), {@code wakeJitterPercent}
 *       (default 50), {@code costJitterPercent} (default 5), {@code os} (default
 *       {@code linux}), {@code smtSlowdown} (default 1.54), {@code wakeCallNs} (default 1,000),
 *       {@code sockets} (default 1), {@code crossSocketTransferNs} (default 118) and
 *       {@code invalidationNs} (default 12, whatever the file's transfer); the missing
 *       ones are listed.</li>
 *   <li>Whole-number fields take integer literals; number fields take any finite number;
 *       {@code name}, {@code description} and {@code base} take strings, {@code os} one of
 *       {@code windows}, {@code linux} (6.6 and later, EEVDF) and {@code linux-cfs} (before 6.6).</li>
 * </ul>
 *
 * <p>Nothing is clamped, defaulted behind the user's back or ignored: an unknown or duplicate
 * key, a value of the wrong type, a value out of range, a malformed file, each is an
 * {@link IllegalArgumentException} whose message starts with the file name ({@code machine
 * file 'x.yaml': ...}) and names the field, or gives the line and column of a syntax error.
 * Reading the file itself can fail with an {@link IOException}.
 *
 * <p>{@link #write} produces a complete file (all fields, no {@code base}) that loads back to an
 * equal profile. Stateless and thread-safe.
 */
public final class MachineProfileFiles {

    /*
     * Implementation notes
     *
     * Fields are applied in MachineField order (name first), not file order, so messages from
     * the model name the file's machine and the result never depends on key order. Values go
     * through MachineProfile.Builder.set(field, text), the same path as the command line's
     * what-if settings, after a type check on the JSON node; Double.toString/Long.toString of
     * a node round-trips exactly.
     *
     * Numbers are written as plain BigDecimals (3.4, 15625000), never 1.5625E7, so files stay
     * readable; BigDecimal.valueOf(double) is the shortest text that parses back to the same
     * double.
     */

    /** The key that names a preset to start from. */
    public static final String BASE_KEY = "base";

    private static final ObjectMapper JSON = JsonMapper.builder()
            .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
            .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
            .enable(StreamWriteFeature.WRITE_BIGDECIMAL_AS_PLAIN)
            .build();
    private static final ObjectMapper YAML = YAMLMapper.builder()
            .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
            .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
            .enable(StreamWriteFeature.WRITE_BIGDECIMAL_AS_PLAIN)
            .disable(YAMLGenerator.Feature.WRITE_DOC_START_MARKER)
            .disable(YAMLGenerator.Feature.SPLIT_LINES)
            .build();

    /** The file formats, chosen by extension. */
    public enum Format {
        /** JSON, {@code .json}. */
        JSON(List.of(".json")),
        /** YAML, {@code .yaml} or {@code .yml}. */
        YAML(List.of(".yaml", ".yml"));

        private final List<String> extensions;

        Format(List<String> extensions) {
            this.extensions = extensions;
        }

        /** The file name extensions of this format, with the dot, lower case. */
        public List<String> extensions() {
            return extensions;
        }

        /**
         * The format of {@code file} by its extension, ignoring case.
         *
         * @throws IllegalArgumentException for any other extension
         */
        public static Format of(Path file) {
            String fileName = String.valueOf(file.getFileName()).toLowerCase(Locale.ROOT);
            for (Format format : values()) {
                for (String extension : format.extensions) {
                    if (fileName.endsWith(extension)) {
                        return format;
                    }
                }
            }
            throw new IllegalArgumentException(source(file) + ": unknown file format; "
                    + "a machine profile file ends with .json, .yaml or .yml");
        }

        private ObjectMapper mapper() {
            return this == JSON ? MachineProfileFiles.JSON : MachineProfileFiles.YAML;
        }
    }

    private MachineProfileFiles() {
    }

    /** Every key a profile file may hold: {@code base}, then the field names. */
    public static List<String> validKeys() {
        List<String> keys = new ArrayList<>();
        keys.add(BASE_KEY);
        keys.addAll(MachineField.names());
        return List.copyOf(keys);
    }

    /**
     * Loads the profile in {@code file}, JSON or YAML by its extension.
     *
     * @throws IllegalArgumentException for an unknown extension or a file that does not
     *                                  describe a valid profile; the message starts with the file name
     * @throws IOException              if the file cannot be read
     */
    public static MachineProfile load(Path file) throws IOException {
        Format format = Format.of(file);
        String text = Files.readString(file, StandardCharsets.UTF_8);
        return parse(text, format, source(file));
    }

    /** Parses a profile from {@code text}; messages name the source as {@code machine text (JSON)}. */
    public static MachineProfile parse(String text, Format format) {
        return parse(text, format, "machine text (" + format + ")");
    }

    /**
     * Parses a profile from {@code text}; every error message starts with {@code source}.
     *
     * @throws IllegalArgumentException if the text does not describe a valid profile
     */
    public static MachineProfile parse(String text, Format format, String source) {
        Objects.requireNonNull(text, "text");
        Objects.requireNonNull(format, "format");
        Objects.requireNonNull(source, "source");
        JsonNode root = readTree(text, format, source);
        try {
            return fromTree(root, format, source);
        } catch (IllegalArgumentException invalid) {
            if (invalid.getMessage() != null && invalid.getMessage().startsWith(source)) {
                throw invalid;
            }
            throw new IllegalArgumentException(source + ": " + invalid.getMessage(), invalid);
        }
    }

    /** Writes {@code profile} to {@code file}, JSON or YAML by its extension, replacing it. */
    public static void write(MachineProfile profile, Path file) throws IOException {
        Files.writeString(file, toText(profile, Format.of(file)), StandardCharsets.UTF_8);
    }

    /** {@code profile} as a complete JSON file. */
    public static String toJson(MachineProfile profile) {
        return toText(profile, Format.JSON);
    }

    /** {@code profile} as a complete file of {@code format}: every field, in field order, no base. */
    public static String toText(MachineProfile profile, Format format) {
        Map<String, Object> tree = new LinkedHashMap<>();
        for (MachineField field : MachineField.values()) {
            Object value = field.valueIn(profile);
            tree.put(field.fieldName(), value instanceof Double ? new BigDecimal(field.text(profile)) : value);
        }
        try {
            if (format == Format.JSON) {
                DefaultPrettyPrinter printer = new DefaultPrettyPrinter()
                        .withObjectIndenter(new DefaultIndenter("  ", "\n"));
                return JSON.writer(printer).writeValueAsString(tree) + "\n";
            }
            return YAML.writeValueAsString(tree);
        } catch (JsonProcessingException impossible) {
            throw new IllegalStateException("cannot write machine profile '" + profile.name() + "'", impossible);
        }
    }

    private static JsonNode readTree(String text, Format format, String source) {
        JsonNode root;
        try {
            root = format.mapper().readTree(text);
        } catch (JsonProcessingException malformed) {
            throw new IllegalArgumentException(source + ": malformed " + format + at(malformed.getLocation()) + ": "
                    + firstLine(malformed.getOriginalMessage()), malformed);
        }
        if (root == null || root.isMissingNode() || root.isNull()) {
            throw new IllegalArgumentException(source + ": is empty; expected an object of machine fields");
        }
        if (!root.isObject()) {
            throw new IllegalArgumentException(source + ": expected an object of machine fields, got "
                    + describe(root));
        }
        return root;
    }

    private static MachineProfile fromTree(JsonNode root, Format format, String source) {
        List<String> unknown = new ArrayList<>();
        Map<MachineField, JsonNode> values = new EnumMap<>(MachineField.class);
        JsonNode base = null;
        for (Map.Entry<String, JsonNode> entry : root.properties()) {
            String key = entry.getKey();
            if (key.equals(BASE_KEY)) {
                base = entry.getValue();
            } else if (MachineField.names().contains(key)) {
                values.put(MachineField.byName(key), entry.getValue());
            } else {
                unknown.add("'" + key + "'");
            }
        }
        if (!unknown.isEmpty()) {
            throw new IllegalArgumentException(source + ": unknown key" + (unknown.size() > 1 ? "s " : " ")
                    + String.join(", ", unknown) + "; valid keys: " + String.join(", ", validKeys()));
        }
        if (!values.containsKey(MachineField.NAME)) {
            throw new IllegalArgumentException(source + ": name is missing; every machine profile file names its "
                    + "machine");
        }
        MachineProfile.Builder builder = base == null ? fullBuilder(values, source) : baseBuilder(base, source);
        for (Map.Entry<MachineField, JsonNode> entry : values.entrySet()) {
            builder.set(entry.getKey(), valueText(entry.getKey(), entry.getValue(), source));
        }
        return builder.build();
    }

    private static MachineProfile.Builder baseBuilder(JsonNode base, String source) {
        if (!base.isTextual()) {
            throw new IllegalArgumentException(source + ": base must be the name of a preset (text), got "
                    + describe(base) + "; valid presets: " + String.join(", ", MachinePresets.names()));
        }
        if (!MachinePresets.contains(base.textValue())) {
            throw new IllegalArgumentException(source + ": base = '" + base.textValue() + "' is not a preset; "
                    + "valid presets: " + String.join(", ", MachinePresets.names()));
        }
        return MachinePresets.byName(base.textValue()).toBuilder();
    }

    private static MachineProfile.Builder fullBuilder(Map<MachineField, JsonNode> values, String source) {
        List<String> missing = new ArrayList<>();
        for (MachineField field : MachineField.values()) {
            boolean optional = field == MachineField.DESCRIPTION || field == MachineField.CACHE_LINE_BYTES
                    || field == MachineField.CYCLES_PER_BYTECODE || field == MachineField.STORE_BYTES_PER_CYCLE
                    || field == MachineField.WAKE_JITTER_PERCENT
                    || field == MachineField.COST_JITTER_PERCENT || field == MachineField.OS
                    || field == MachineField.SMT_SLOWDOWN || field == MachineField.WAKE_CALL_NS
                    || field == MachineField.SOCKETS || field == MachineField.CROSS_SOCKET_TRANSFER_NS
                    || field == MachineField.INVALIDATION_NS;
            if (!optional && !values.containsKey(field)) {
                missing.add(field.fieldName());
            }
        }
        if (!missing.isEmpty()) {
            throw new IllegalArgumentException(source + ": missing " + String.join(", ", missing)
                    + "; a file without \"" + BASE_KEY + "\" gives every field (all but description, "
                    + "cacheLineBytes, cyclesPerBytecode, storeBytesPerCycle, wakeJitterPercent, costJitterPercent, "
                    + "os, smtSlowdown, wakeCallNs, sockets, crossSocketTransferNs and invalidationNs), "
                    + "or starts from a "
                    + "preset with \"" + BASE_KEY + "\": one of "
                    + String.join(", ", MachinePresets.names()));
        }
        // Every required field is set below; the builder's defaults only fill the optional ones.
        return MachineProfile.builder(values.get(MachineField.NAME).asText());
    }

    /** The node's value as text for Builder.set, after checking it is of the field's kind. */
    private static String valueText(MachineField field, JsonNode node, String source) {
        boolean ok = switch (field.kind()) {
            case TEXT, CHOICE -> node.isTextual();
            case WHOLE_NUMBER -> node.isIntegralNumber();
            case NUMBER -> node.isNumber();
        };
        if (!ok) {
            String expected = switch (field.kind()) {
                case TEXT, CHOICE -> "text";
                case WHOLE_NUMBER -> "a whole number";
                case NUMBER -> "a number";
            };
            throw new IllegalArgumentException(source + ": " + field.fieldName() + " must be " + expected + ", got "
                    + describe(node) + "; allowed " + field.allowed());
        }
        return node.isTextual() ? node.textValue() : node.asText();
    }

    private static String describe(JsonNode node) {
        return switch (node.getNodeType()) {
            case STRING -> "the text " + node;
            case NUMBER -> "the number " + node;
            case BOOLEAN -> "the boolean " + node;
            case NULL -> "null";
            case ARRAY -> "a list";
            case OBJECT, POJO -> "an object";
            case BINARY, MISSING -> String.valueOf(node.getNodeType()).toLowerCase(Locale.ROOT);
        };
    }

    /** SnakeYAML appends an excerpt with a caret on further lines; the location already says where. */
    private static String firstLine(String message) {
        if (message == null) {
            return "syntax error";
        }
        int end = message.indexOf('\n');
        return end < 0 ? message : message.substring(0, end);
    }

    private static String at(JsonLocation location) {
        if (location == null || location.getLineNr() < 0) {
            return "";
        }
        return " at line " + location.getLineNr() + ", column " + location.getColumnNr();
    }

    private static String source(Path file) {
        return "machine file '" + file + "'";
    }
}
