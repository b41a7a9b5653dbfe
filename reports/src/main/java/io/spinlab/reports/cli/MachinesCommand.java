package io.spinlab.reports.cli;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.spinlab.model.machine.MachinePresets;
import io.spinlab.model.machine.MachineProfile;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

import java.io.PrintWriter;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;

/** {@code spinlab machines}: the machine presets with their key figures. */
@Command(name = "machines", mixinStandardHelpOptions = true,
        description = "List the machine presets: processors, clock, PAUSE cost and OS costs.")
final class MachinesCommand implements Callable<Integer> {

    @Option(names = "--json", description = "Print a JSON array with every field of every preset.")
    private boolean json;

    @Spec
    private CommandSpec spec;

    @Override
    public Integer call() throws Exception {
        PrintWriter out = spec.commandLine().getOut();
        List<MachineProfile> presets = MachinePresets.all();
        if (json) {
            out.println(toJson(presets));
        } else {
            out.print(table(presets));
        }
        out.flush();
        return 0;
    }

    static String table(List<MachineProfile> presets) {
        TextTable table = new TextTable("machine", "cores/threads", "GHz", "PAUSE cycles", "PAUSE ns", "line xfer ns",
                "wake µs", "sleep gran. ms", "slice ms", "os", "description");
        for (MachineProfile m : presets) {
            table.row(m.name(), m.physicalCores() + "/" + m.logicalProcessors(), fixed(m.frequencyGhz(), 1),
                    Integer.toString(m.pauseCycles()), fixed(m.pauseNs(), 1), fixed(m.cacheLineTransferNs(), 0),
                    fixed(m.wakeLatencyNs() / 1_000, 1), fixed(m.sleepGranularityNs() / 1_000_000, 2),
                    fixed(m.timeSliceNs() / 1_000_000, 1), m.os().text(), m.description());
        }
        return table.render();
    }

    static String toJson(List<MachineProfile> presets) throws Exception {
        ObjectMapper mapper = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);
        ArrayNode array = mapper.createArrayNode();
        for (MachineProfile m : presets) {
            ObjectNode node = array.addObject();
            node.put("name", m.name());
            node.put("description", m.description());
            node.put("frequencyGhz", m.frequencyGhz());
            node.put("pauseCycles", m.pauseCycles());
            node.put("pauseNs", m.pauseNs());
            node.put("physicalCores", m.physicalCores());
            node.put("logicalProcessors", m.logicalProcessors());
            node.put("clockReadNs", m.clockReadNs());
            node.put("atomicOpNs", m.atomicOpNs());
            node.put("cacheLineTransferNs", m.cacheLineTransferNs());
            node.put("contextSwitchNs", m.contextSwitchNs());
            node.put("wakeLatencyNs", m.wakeLatencyNs());
            node.put("yieldReadyNs", m.yieldReadyNs());
            node.put("yieldIdleNs", m.yieldIdleNs());
            node.put("sleepGranularityNs", m.sleepGranularityNs());
            node.put("timeSliceNs", m.timeSliceNs());
            node.put("cacheLineBytes", m.cacheLineBytes());
            node.put("cyclesPerBytecode", m.cyclesPerBytecode());
            node.put("storeBytesPerCycle", m.storeBytesPerCycle());
            node.put("wakeJitterPercent", m.wakeJitterPercent());
            node.put("costJitterPercent", m.costJitterPercent());
            node.put("os", m.os().text());
            node.put("smtSlowdown", m.smtSlowdown());
            node.put("wakeCallNs", m.wakeCallNs());
            node.put("sockets", m.sockets());
            node.put("crossSocketTransferNs", m.crossSocketTransferNs());
            node.put("invalidationNs", m.invalidationNs());
        }
        return mapper.writeValueAsString(array);
    }

    private static String fixed(double value, int decimals) {
        return String.format(Locale.ROOT, "%." + decimals + "f", value);
    }
}
