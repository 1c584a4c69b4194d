package dev.proxypool.cli;

import dev.proxypool.core.ops.WorkerCapacity;
import java.io.PrintWriter;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

@Command(
        name = "capacity",
        mixinStandardHelpOptions = true,
        description = {
            "Compute how many gateway workers a peak needs (docs/runbook.md#workers).",
            "  workers = ceil(peak / (measured_worker_qps * utilization)) + spares",
            "measured-worker-qps must come from a load test close to production; judge it by P95/P99."
        },
        footer = {
            "",
            "Example:",
            "  proxypool capacity --peak-qps 100000 --measured-worker-qps 12000 \\",
            "      --utilization 0.6 --spares 2"
        })
final class CapacityCommand implements Callable<Integer> {

    @Spec
    CommandSpec spec;

    @Option(names = "--peak-qps", required = true, description = "Expected cluster peak (requests/s).")
    double peakQps;

    @Option(
            names = "--measured-worker-qps",
            required = true,
            description = "What one worker sustained in a realistic load test.")
    double measuredWorkerQps;

    @Option(
            names = "--utilization",
            defaultValue = "0.6",
            description = "Target utilization in (0, 1] (default ${DEFAULT-VALUE}).")
    double utilization;

    @Option(
            names = "--spares",
            defaultValue = "1",
            description = "Spare workers for a failure domain (default ${DEFAULT-VALUE}).")
    int spares;

    @Option(names = "--json", description = "Print JSON for scripts.")
    boolean json;

    @Override
    public Integer call() {
        WorkerCapacity plan;
        try {
            plan = new WorkerCapacity(peakQps, measuredWorkerQps, utilization, spares);
        } catch (IllegalArgumentException e) {
            spec.commandLine().getErr().println("proxypool capacity: " + e.getMessage());
            return Main.EXIT_USAGE;
        }
        PrintWriter out = spec.commandLine().getOut();
        if (json) {
            out.printf(
                    Locale.ROOT,
                    "{\"peakQps\": %s, \"measuredWorkerQps\": %s, \"utilization\": %s, \"spares\": %d, "
                            + "\"baseWorkers\": %d, \"requiredWorkers\": %d}%n",
                    num(peakQps),
                    num(measuredWorkerQps),
                    num(utilization),
                    spares,
                    plan.baseWorkers(),
                    plan.requiredWorkers());
        } else {
            out.printf(Locale.ROOT, "peak                 %,.0f req/s%n", peakQps);
            out.printf(
                    Locale.ROOT,
                    "per worker           %,.0f req/s measured, run at %.0f%%%n",
                    measuredWorkerQps,
                    utilization * 100);
            out.printf(
                    Locale.ROOT,
                    "workers for the peak %d (each at %.0f%% of its measured rate)%n",
                    plan.baseWorkers(),
                    plan.utilizationAtPeak() * 100);
            out.printf(Locale.ROOT, "spares               %d%n", spares);
            out.printf(Locale.ROOT, "required workers     %d%n", plan.requiredWorkers());
        }
        out.flush();
        return Main.EXIT_OK;
    }

    private static String num(double d) {
        return d == Math.rint(d) && Math.abs(d) < 1e15 ? String.valueOf((long) d) : String.valueOf(d);
    }
}
