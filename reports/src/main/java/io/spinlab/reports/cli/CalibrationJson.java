package io.spinlab.reports.cli;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.spinlab.sim.experiment.CalibrationPoint;
import io.spinlab.sim.experiment.CalibrationResult;
import io.spinlab.sim.experiment.ConfidenceInterval;
import io.spinlab.sim.experiment.HostCalibration;
import io.spinlab.sim.experiment.Spread;

import java.nio.file.Path;

/**
 * {@code calibrate --json}: the calibration as one JSON object, for scripts. Every figure the text prints,
 * with each point's every real-thread run and simulated seed; a figure that was not measured (NaN) is null.
 */
final class CalibrationJson {
    private CalibrationJson() {
    }

    static String of(CalibrationResult result, HostCalibration.Settings settings, Path profile) throws Exception {
        ObjectMapper mapper = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);
        ObjectNode node = mapper.createObjectNode();
        number(node, "nsPerPause", result.nsPerPause());
        node.put("logicalProcessors", result.host().logicalProcessors());
        node.put("os", result.host().os().text());
        number(node, "timeSliceNs", result.host().timeSliceNs());
        node.put("measuredCosts", result.costs().describe());
        number(node, "lineTransferAfterNs", result.lineTransferAfterNs());
        ObjectNode checks = node.putObject("checks");
        checks.put("instructionClock", result.bytecode().describe());
        checks.put("contendedLine", result.casLoop().describe());
        checks.put("contendedRing", result.ringLoop().describe());
        checks.put("lineHandover", result.handovers().describe());
        checks.put("pollingReader", result.pollingReader().describe());
        checks.put("yieldBehindBusyThreads", result.yields().describe());
        checks.put("wakingAParkedThread", result.wakes().describe());
        ObjectNode protocol = node.putObject("protocol");
        protocol.put("repetitions", settings.repetitions());
        protocol.put("seeds", settings.seeds());
        protocol.put("hardwareWarmupNanos", settings.hardwareWarmupNanos());
        protocol.put("window", settings.hardwareWindow().parameters());
        ArrayNode points = node.putArray("points");
        for (CalibrationPoint p : result.points()) {
            ObjectNode o = points.addObject();
            o.put("workload", p.workload());
            o.put("tuning", p.tuning());
            o.put("parameters", p.parameters());
            o.put("simulatedParameters", p.simulatedParameters());
            number(o, "hardwareScore", p.hardwareScore());
            runs(o.putArray("hardwareRuns"), p.hardware());
            number(o, "simulatedScore", p.simulatedScore());
            runs(o.putArray("simulatedSeeds"), p.simulated());
            o.put("hardwareOperations", p.hardwareOperations());
            o.put("simulatedOperations", p.simulatedOperations());
            number(o, "hardwareBusy", p.hardwareBusy());
            number(o, "simulatedBusy", p.simulatedBusy());
            number(o, "lineTransferBeforeNs", p.lineTransferBeforeNs());
            number(o, "lineTransferAfterNs", p.lineTransferAfterNs());
            number(o, "simulatedLineTransferNs", p.simulatedLineTransferNs());
            if (p.notMeasurable().isPresent()) {
                o.put("notMeasurable", p.notMeasurable().get());
            } else {
                o.putNull("notMeasurable");
            }
        }
        number(node, "spearman", result.spearman());
        interval(node, "spearmanInterval95", result.spearmanInterval());
        number(node, "hostSelfAgreement", result.hostSelfAgreement());
        interval(node, "hostSelfAgreementInterval95", result.hostSelfAgreementInterval());
        CalibrationResult.Pairs pairs = result.tuningPairs();
        ObjectNode pairNode = node.putObject("tuningPairs");
        pairNode.put("measurable", pairs.measurable());
        pairNode.put("distinguishable", pairs.distinguishable());
        pairNode.put("orderedAlike", pairs.orderedAlike());
        number(pairNode, "share", result.tuningOrderAgreement());
        interval(pairNode, "shareInterval95", result.tuningOrderAgreementInterval());
        ArrayNode otherwise = pairNode.putArray("orderedOtherwise");
        for (CalibrationResult.Disagreement d : pairs.orderedOtherwise()) {
            ObjectNode o = otherwise.addObject();
            o.put("workload", d.higherOnHost().workload());
            o.put("higherOnHost", d.higherOnHost().tuning());
            o.put("lowerOnHost", d.lowerOnHost().tuning());
        }
        if (profile == null) {
            node.putNull("profile");
        } else {
            node.put("profile", profile.toString());
        }
        return mapper.writeValueAsString(node);
    }

    private static void runs(ArrayNode array, Spread spread) {
        for (double v : spread.values()) {
            if (Double.isNaN(v)) {
                array.addNull();
            } else {
                array.add(v);
            }
        }
    }

    /** {@code name: {"low": …, "high": …}}, or null where the interval could not be computed. */
    private static void interval(ObjectNode node, String name, ConfidenceInterval interval) {
        if (!interval.known()) {
            node.putNull(name);
            return;
        }
        ObjectNode o = node.putObject(name);
        o.put("low", interval.low());
        o.put("high", interval.high());
    }

    /** {@code value} under {@code name}, or null when it was not measured (NaN). */
    private static void number(ObjectNode node, String name, double value) {
        if (Double.isNaN(value) || Double.isInfinite(value)) {
            node.putNull(name);
        } else {
            node.put(name, value);
        }
    }
}
