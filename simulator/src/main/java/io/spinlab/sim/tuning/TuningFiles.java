package io.spinlab.sim.tuning;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.StreamReadFeature;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import io.spinlab.model.tuning.Knob;
import io.spinlab.model.tuning.Tuning;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Reads a {@link Tuning} from a JSON or YAML file, so that a tuning under study can be kept
 * beside the machine profiles it is tried on.
 *
 * <p>A file is one object: an optional {@code base} preset ({@code legacy} or {@code current};
 * default {@code current}, as in {@link Tuning#parse}) and any knobs by their command-line names,
 * each with one of the knob's value names:
 * <pre>{@code
 * base: current
 * spin: proc-scaled
 * reservation: under-lock
 * }</pre>
 *
 * <p>An unknown or duplicate key, a value that is not text, an unknown value, a malformed or
 * empty file: each is an {@link IllegalArgumentException} whose message starts with
 * {@code tuning file 'x.yaml':} and lists what is valid. Stateless and thread-safe.
 */
public final class TuningFiles {

    /** The key that names the preset the knobs start from. */
    public static final String BASE_KEY = "base";

    private static final ObjectMapper JSON = JsonMapper.builder()
            .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
            .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
            .build();
    private static final ObjectMapper YAML = YAMLMapper.builder()
            .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
            .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
            .build();

    private TuningFiles() {
    }

    /** Whether {@code text} names a tuning file (by its extension) rather than a tuning. */
    public static boolean isFileName(String text) {
        String lower = text.strip().toLowerCase(Locale.ROOT);
        return lower.endsWith(".json") || lower.endsWith(".yaml") || lower.endsWith(".yml");
    }

    /** Every key a tuning file may hold: {@code base}, then the knob names. */
    public static List<String> validKeys() {
        List<String> keys = new ArrayList<>();
        keys.add(BASE_KEY);
        Arrays.stream(Knob.values()).map(Knob::knobName).forEach(keys::add);
        return List.copyOf(keys);
    }

    /**
     * Loads the tuning in {@code file}, JSON or YAML by its extension.
     *
     * @throws IllegalArgumentException for a missing file, an unknown extension or a file that does
     *                                  not describe a tuning; the message starts with the file name
     * @throws IOException              if the file exists but cannot be read
     */
    public static Tuning load(Path file) throws IOException {
        String source = "tuning file '" + file + "'";
        if (!isFileName(String.valueOf(file.getFileName()))) {
            throw new IllegalArgumentException(source + ": unknown file format; a tuning file ends with .json, "
                    + ".yaml or .yml");
        }
        if (!Files.isRegularFile(file)) {
            throw new IllegalArgumentException(source + " does not exist");
        }
        boolean json = String.valueOf(file.getFileName()).toLowerCase(Locale.ROOT).endsWith(".json");
        return parse(Files.readString(file, StandardCharsets.UTF_8), json, source);
    }

    /**
     * Parses a tuning file's text; every error message starts with {@code source}.
     *
     * @param json JSON when true, YAML otherwise
     */
    public static Tuning parse(String text, boolean json, String source) {
        JsonNode root;
        try {
            root = (json ? JSON : YAML).readTree(text);
        } catch (JsonProcessingException malformed) {
            String message = malformed.getOriginalMessage() == null ? "syntax error"
                    : malformed.getOriginalMessage().lines().findFirst().orElse("syntax error");
            throw new IllegalArgumentException(source + ": malformed " + (json ? "JSON" : "YAML") + " at line "
                    + malformed.getLocation().getLineNr() + ", column " + malformed.getLocation().getColumnNr()
                    + ": " + message, malformed);
        }
        if (root == null || root.isMissingNode() || root.isNull()) {
            throw new IllegalArgumentException(source + ": is empty; expected an object of knob settings, keys: "
                    + String.join(", ", validKeys()));
        }
        if (!root.isObject()) {
            throw new IllegalArgumentException(source + ": expected an object of knob settings, keys: "
                    + String.join(", ", validKeys()));
        }
        try {
            return fromTree(root, source);
        } catch (IllegalArgumentException invalid) {
            if (invalid.getMessage() != null && invalid.getMessage().startsWith(source)) {
                throw invalid;
            }
            throw new IllegalArgumentException(source + ": " + invalid.getMessage(), invalid);
        }
    }

    private static Tuning fromTree(JsonNode root, String source) {
        JsonNode base = root.get(BASE_KEY);
        Tuning tuning = base == null ? Tuning.current() : Tuning.preset(text(BASE_KEY, base, source));
        for (Map.Entry<String, JsonNode> entry : root.properties()) {
            String key = entry.getKey();
            if (key.equals(BASE_KEY)) {
                continue;
            }
            if (!validKeys().contains(key)) {
                throw new IllegalArgumentException(source + ": unknown key '" + key + "'; valid keys: "
                        + String.join(", ", validKeys()));
            }
            tuning = tuning.with(key, text(key, entry.getValue(), source));
        }
        return tuning;
    }

    private static String text(String key, JsonNode node, String source) {
        if (!node.isTextual()) {
            throw new IllegalArgumentException(source + ": " + key + " must be text (a value name), got " + node);
        }
        return node.textValue();
    }
}
