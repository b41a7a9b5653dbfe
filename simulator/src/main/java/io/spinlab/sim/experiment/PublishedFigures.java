package io.spinlab.sim.experiment;

import com.fasterxml.jackson.core.StreamReadFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import io.spinlab.sim.workload.Workload;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.Set;

/**
 * The published figures and claims the experiments are judged against, read from one data file,
 * {@code published.json} beside this class: per source (a pull request's measurement on one
 * machine, with its thread, comment date and author) the rows it printed with their left and right
 * scores, its total, claims in words for rows it gave no figure for, and the left scores it printed
 * for rows whose right score could not be read (levels: a source that has them gives its unit in
 * spinlab's, {@code scoreScale} operations per ms per published unit).
 *
 * <p>A row of an experiment gets, in this order: the first figure of a source of its experiment and
 * machine whose workload and parameters match; else the first such claim; else nothing. A figure
 * or claim matches a row when its {@code workload} (if given) is the row's and every key of its
 * {@code where} has the row's value (one value or a list of allowed values). A row whose workload
 * and parameters a level matches carries that level as its published left score per ms
 * ({@link Published#leftPerMs()}).
 */
public final class PublishedFigures {

    /** The resource the standard figures are read from. */
    public static final String RESOURCE = "published.json";

    private static final ObjectMapper JSON = JsonMapper.builder()
            .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION).build();
    private static volatile PublishedFigures standard;

    private final List<Source> sources;
    private final List<Figure> figures;
    private final List<Claim> claims;
    private final List<Total> totals;
    private final List<Level> levels;

    /**
     * One measurement: a pull request's change measured on one machine.
     *
     * @param id             the key figures and claims refer to
     * @param experiment     the spinlab experiment it is re-created by
     * @param spinlabMachine the machine preset that models the machine
     * @param citation       where it was published
     * @param left           what the left side was, in the source's words
     * @param right          what the right side was
     * @param unit           the unit of the scores
     */
    public record Source(String id, String experiment, String spinlabMachine, Citation citation, String left,
                         String right, String unit) {
    }

    /**
     * One published row.
     *
     * @param source       the source's id
     * @param scenario     the row as the source names it, e.g. {@code MresWaitDrainRate 01Pc}
     * @param workload     the spinlab workload
     * @param where        the workload parameters it stands for
     * @param left         the left score, when printed
     * @param right        the right score, when printed
     * @param deltaPercent the Δ % as printed (or computed from the scores when not printed)
     */
    public record Figure(String source, String scenario, String workload, Map<String, List<String>> where,
                         OptionalDouble left, OptionalDouble right, double deltaPercent) {
    }

    /**
     * A claim in words for rows without a figure.
     *
     * @param source    the source's id
     * @param workload  the workload it is about, or empty for every workload
     * @param where     the parameters it is about
     * @param direction what it claims
     * @param text      the claim as the source puts it, briefly
     */
    public record Claim(String source, Optional<String> workload, Map<String, List<String>> where,
                        Published.Direction direction, String text) {
    }

    /**
     * A source's total over its rows.
     *
     * @param source       the source's id
     * @param deltaPercent the total Δ %
     * @param text         the total as printed and how it is computed
     */
    public record Total(String source, double deltaPercent, String text) {
    }

    /**
     * A published left score of a row whose right score was not published (or could not be read).
     *
     * @param source    the source's id
     * @param scenario  the row as the source names it
     * @param workload  the spinlab workload
     * @param where     the workload parameters it stands for
     * @param left      the score as printed, in the source's unit
     * @param leftPerMs the same in spinlab's unit, operations per ms (the source's {@code scoreScale} × left)
     */
    public record Level(String source, String scenario, String workload, Map<String, List<String>> where,
                        double left, double leftPerMs) {
    }

    private PublishedFigures(List<Source> sources, List<Figure> figures, List<Claim> claims, List<Total> totals,
                             List<Level> levels) {
        this.sources = List.copyOf(sources);
        this.figures = List.copyOf(figures);
        this.claims = List.copyOf(claims);
        this.totals = List.copyOf(totals);
        this.levels = List.copyOf(levels);
    }

    /** The figures of {@value #RESOURCE}, read once. */
    public static PublishedFigures standard() {
        PublishedFigures figures = standard;
        if (figures == null) {
            figures = parse(resource(RESOURCE));
            standard = figures;
        }
        return figures;
    }

    /** The text of the resource {@code name} beside this class (a data file of the simulator). */
    static String resource(String name) {
        try (InputStream in = PublishedFigures.class.getResourceAsStream(name)) {
            if (in == null) {
                throw new IllegalStateException("the resource " + name + " is missing from the simulator");
            }
            return new String(in.readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + name, e);
        }
    }

    /** {@code json} as a tree; a syntax error is an IllegalArgumentException that starts with {@code what}. */
    static JsonNode readTree(String json, String what) {
        try {
            return JSON.readTree(json);
        } catch (IOException e) {
            throw new IllegalArgumentException(what + ": not valid JSON: " + e.getMessage(), e);
        }
    }

    /**
     * Reads figures from JSON text.
     *
     * @throws IllegalArgumentException when the text is not such a file, naming what is wrong
     */
    public static PublishedFigures parse(String json) {
        JsonNode root = readTree(json, "published figures");
        List<Source> sources = new ArrayList<>();
        Set<String> ids = new HashSet<>();
        Map<String, Double> scales = new HashMap<>();
        for (JsonNode s : array(root, "sources")) {
            Citation citation = new Citation(text(s, "repository"), s.path("pullRequest").asInt(),
                    text(s, "postedIn"), text(s, "url"), text(s, "author"), text(s, "date"), text(s, "machine"),
                    s.path("note").asText(""));
            Source source = new Source(text(s, "id"), text(s, "experiment"), text(s, "spinlabMachine"), citation,
                    s.path("left").asText(""), s.path("right").asText(""), s.path("unit").asText(""));
            if (!ids.add(source.id())) {
                throw new IllegalArgumentException("published figures: source '" + source.id() + "' appears twice");
            }
            sources.add(source);
            OptionalDouble scale = number(s, "scoreScale");
            if (scale.isPresent()) {
                if (!(scale.getAsDouble() > 0) || Double.isInfinite(scale.getAsDouble())) {
                    throw new IllegalArgumentException("published figures: source '" + source.id()
                            + "' has scoreScale " + scale.getAsDouble() + "; valid: a positive number");
                }
                scales.put(source.id(), scale.getAsDouble());
            }
        }
        List<Figure> figures = new ArrayList<>();
        for (JsonNode f : array(root, "figures")) {
            String source = known(ids, text(f, "source"));
            OptionalDouble left = number(f, "left");
            OptionalDouble right = number(f, "right");
            OptionalDouble printed = number(f, "deltaPercent");
            double delta;
            if (left.isPresent() && right.isPresent()) {
                delta = Experiment.deltaPercent(left.getAsDouble(), right.getAsDouble());
            } else if (printed.isPresent()) {
                delta = printed.getAsDouble();
            } else {
                throw new IllegalArgumentException("published figures: figure '" + text(f, "scenario")
                        + "' has neither both scores nor a deltaPercent");
            }
            figures.add(new Figure(source, text(f, "scenario"), text(f, "workload"), where(f), left, right, delta));
        }
        List<Claim> claims = new ArrayList<>();
        for (JsonNode c : array(root, "claims")) {
            String workload = c.path("workload").asText("");
            claims.add(new Claim(known(ids, text(c, "source")),
                    workload.isEmpty() ? Optional.empty() : Optional.of(workload), where(c),
                    direction(text(c, "direction")), text(c, "text")));
        }
        List<Total> totals = new ArrayList<>();
        for (JsonNode t : array(root, "totals")) {
            OptionalDouble delta = number(t, "deltaPercent");
            if (delta.isEmpty()) {
                throw new IllegalArgumentException("published figures: a total of '" + text(t, "source")
                        + "' has no deltaPercent");
            }
            totals.add(new Total(known(ids, text(t, "source")), delta.getAsDouble(), text(t, "text")));
        }
        List<Level> levels = new ArrayList<>();
        for (JsonNode l : optionalArray(root, "levels")) {
            String source = known(ids, text(l, "source"));
            Double scale = scales.get(source);
            if (scale == null) {
                throw new IllegalArgumentException("published figures: a level of '" + source + "' needs the source's "
                        + "scoreScale (operations per ms per published unit)");
            }
            OptionalDouble left = number(l, "left");
            if (left.isEmpty() || !(left.getAsDouble() > 0) || Double.isInfinite(left.getAsDouble())) {
                throw new IllegalArgumentException("published figures: level '" + text(l, "scenario")
                        + "' needs a positive 'left' score");
            }
            levels.add(new Level(source, text(l, "scenario"), text(l, "workload"), where(l), left.getAsDouble(),
                    left.getAsDouble() * scale));
        }
        return new PublishedFigures(sources, figures, claims, totals, levels);
    }

    /** Every source, in file order. */
    public List<Source> sources() {
        return sources;
    }

    /** Every figure, in file order. */
    public List<Figure> figures() {
        return figures;
    }

    /** Every level, in file order. */
    public List<Level> levels() {
        return levels;
    }

    /** The sources of {@code experiment}, in file order. */
    public List<Source> sourcesOf(String experiment) {
        return sources.stream().filter(s -> s.experiment().equals(experiment)).toList();
    }

    /** What was published about {@code workload} on {@code machine} in {@code experiment}. */
    public Published claim(String experiment, String machine, Workload workload) {
        Published published = figureOrClaim(experiment, machine, workload);
        Map<String, String> parameters = parameters(workload.parameters());
        for (Source source : sources) {
            if (!source.experiment().equals(experiment) || !source.spinlabMachine().equals(machine)) {
                continue;
            }
            for (Level l : levels) {
                if (l.source().equals(source.id()) && l.workload().equals(workload.name())
                        && matches(l.where(), parameters)) {
                    return published.withLeftPerMs(l.leftPerMs());
                }
            }
        }
        return published;
    }

    private Published figureOrClaim(String experiment, String machine, Workload workload) {
        Map<String, String> parameters = parameters(workload.parameters());
        for (Source source : sources) {
            if (!source.experiment().equals(experiment) || !source.spinlabMachine().equals(machine)) {
                continue;
            }
            for (Figure f : figures) {
                if (f.source().equals(source.id()) && f.workload().equals(workload.name())
                        && matches(f.where(), parameters)) {
                    return published(source, f);
                }
            }
        }
        for (Source source : sources) {
            if (!source.experiment().equals(experiment) || !source.spinlabMachine().equals(machine)) {
                continue;
            }
            for (Claim c : claims) {
                if (c.source().equals(source.id()) && c.workload().map(workload.name()::equals).orElse(true)
                        && matches(c.where(), parameters)) {
                    return Published.direction(c.direction(), shortName(source) + ": " + c.text())
                            .citing(source.citation());
                }
            }
        }
        return Published.none();
    }

    /** The published total of {@code experiment} on {@code machine}, if one was printed. */
    public Optional<Published> total(String experiment, String machine) {
        for (Source source : sources) {
            if (source.experiment().equals(experiment) && source.spinlabMachine().equals(machine)) {
                for (Total t : totals) {
                    if (t.source().equals(source.id())) {
                        return Optional.of(Published.delta(t.deltaPercent(), shortName(source) + ": " + t.text())
                                .citing(source.citation()));
                    }
                }
            }
        }
        return Optional.empty();
    }

    private static Published published(Source source, Figure f) {
        String name = shortName(source) + ": " + f.scenario();
        if (f.left().isPresent() && f.right().isPresent()) {
            return Published.figure(f.left().getAsDouble(), f.right().getAsDouble(), String.format(Locale.ROOT,
                    "%s %s → %s", name, plain(f.left().getAsDouble()), plain(f.right().getAsDouble())))
                    .citing(source.citation());
        }
        return Published.delta(f.deltaPercent(), String.format(Locale.ROOT, "%s %+.0f %%", name, f.deltaPercent()))
                .citing(source.citation());
    }

    /** {@code coreclr #13556, Core i7-6700 (Skylake, 4C/8T)}. */
    private static String shortName(Source source) {
        String repository = source.citation().repository();
        String project = repository.substring(repository.indexOf('/') + 1);
        return project + " #" + source.citation().pullRequest() + ", " + source.citation().machine();
    }

    private static String plain(double value) {
        return value == Math.rint(value) ? String.format(Locale.ROOT, "%,.0f", value)
                : String.format(Locale.ROOT, "%,.2f", value);
    }

    static boolean matches(Map<String, List<String>> where, Map<String, String> parameters) {
        for (Map.Entry<String, List<String>> e : where.entrySet()) {
            String value = parameters.get(e.getKey());
            if (value == null || !e.getValue().contains(value)) {
                return false;
            }
        }
        return true;
    }

    /** {@code threads=1pc,delay=0} as a map. */
    static Map<String, String> parameters(String text) {
        Map<String, String> map = new LinkedHashMap<>();
        for (String pair : text.split(",")) {
            int eq = pair.indexOf('=');
            if (eq > 0) {
                map.put(pair.substring(0, eq).strip(), pair.substring(eq + 1).strip());
            }
        }
        return map;
    }

    static Map<String, List<String>> where(JsonNode node) {
        Map<String, List<String>> where = new LinkedHashMap<>();
        node.path("where").properties().forEach(e -> {
            List<String> values = new ArrayList<>();
            if (e.getValue().isArray()) {
                e.getValue().forEach(v -> values.add(v.asText()));
            } else {
                values.add(e.getValue().asText());
            }
            where.put(e.getKey(), List.copyOf(values));
        });
        return where;
    }

    private static Published.Direction direction(String text) {
        return switch (text) {
            case "better" -> Published.Direction.RIGHT_BETTER;
            case "not-worse" -> Published.Direction.NOT_WORSE;
            case "worse" -> Published.Direction.RIGHT_WORSE;
            case "neutral" -> Published.Direction.NEUTRAL;
            default -> throw new IllegalArgumentException("published figures: unknown direction '" + text
                    + "'; valid directions: better, not-worse, worse, neutral");
        };
    }

    private static String known(Set<String> ids, String id) {
        if (!ids.contains(id)) {
            throw new IllegalArgumentException("published figures: unknown source '" + id + "'; valid sources: "
                    + String.join(", ", ids.stream().sorted().toList()));
        }
        return id;
    }

    private static Iterable<JsonNode> array(JsonNode root, String field) {
        JsonNode node = root.path(field);
        if (!node.isArray()) {
            throw new IllegalArgumentException("published figures: '" + field + "' must be an array");
        }
        return node;
    }

    /** An array that may be absent (an empty one then). */
    private static Iterable<JsonNode> optionalArray(JsonNode root, String field) {
        return root.path(field).isMissingNode() ? List.of() : array(root, field);
    }

    private static String text(JsonNode node, String field) {
        JsonNode value = node.get(field);
        if (value == null || !value.isTextual() || value.asText().isBlank()) {
            throw new IllegalArgumentException("published figures: '" + field + "' missing or empty in " + node);
        }
        return value.asText();
    }

    private static OptionalDouble number(JsonNode node, String field) {
        JsonNode value = node.get(field);
        if (value == null || value.isNull()) {
            return OptionalDouble.empty();
        }
        if (!value.isNumber()) {
            throw new IllegalArgumentException("published figures: '" + field + "' must be a number in " + node);
        }
        return OptionalDouble.of(value.asDouble());
    }

    @Override
    public String toString() {
        return "PublishedFigures[" + sources.size() + " sources, " + figures.size() + " figures, " + claims.size()
                + " claims, " + levels.size() + " levels]";
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof PublishedFigures p && sources.equals(p.sources) && figures.equals(p.figures)
                && claims.equals(p.claims) && totals.equals(p.totals);
    }

    @Override
    public int hashCode() {
        return Objects.hash(sources, figures, claims, totals);
    }
}
