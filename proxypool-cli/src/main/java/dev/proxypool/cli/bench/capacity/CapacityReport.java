package dev.proxypool.cli.bench.capacity;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * The table and the JSON object of a capacity run (the JSON fields are listed in docs/runbook.md,
 * "Sizing"), and the {@code proxypool capacity} line that uses its figure.
 */
public final class CapacityReport {

    private CapacityReport() {}

    public static String capacityLine(double measuredWorkerQps) {
        return String.format(
                Locale.ROOT,
                "proxypool capacity --peak-qps <PEAK> --measured-worker-qps %.0f --utilization 0.6 --spares 1",
                measuredWorkerQps);
    }

    public static String table(String gateway, TrafficProfile profile, Slo slo, CapacityResult r) {
        StringBuilder sb = new StringBuilder();
        sb.append("bench capacity: ").append(gateway).append('\n');
        sb.append("profile: ").append(profile.describe()).append('\n');
        sb.append(String.format(
                Locale.ROOT,
                "SLO: added-latency P99 <= %d ms, error rate <= %.3f%%%n%n",
                slo.p99().toMillis(),
                slo.maxErrorRate() * 100));
        sb.append(String.format(
                Locale.ROOT,
                "%4s %8s %8s | %28s | %28s | %7s %6s %6s %5s %6s  %s%n",
                "step",
                "offered",
                "achieved",
                "added ms p50/p95/p99/p99.9",
                "e2e ms p50/p95/p99/p99.9",
                "err %",
                "tunnels",
                "conns",
                "cpu%",
                "rssMiB",
                "SLO"));
        for (StepResult s : r.steps()) {
            sb.append(String.format(
                    Locale.ROOT,
                    "%4d %8.0f %8.1f | %28s | %28s | %7.3f %6d %6d %5s %6s  %s%n",
                    s.step(),
                    s.offeredRate(),
                    s.achievedRate(),
                    quad(s.addedMs()),
                    quad(s.endToEndMs()),
                    s.errorRate() * 100,
                    s.peakTunnels(),
                    s.peakConnections(),
                    s.workerCpuPercent() < 0 ? "-" : String.format(Locale.ROOT, "%.0f", s.workerCpuPercent()),
                    s.workerRssBytes() < 0 ? "-" : Long.toString(s.workerRssBytes() >> 20),
                    s.meetsSlo() ? "ok" : "BROKEN"));
            if (!s.errorsByReason().isEmpty()) {
                sb.append("       errors: ")
                        .append(new TreeMap<>(s.errorsByReason()))
                        .append('\n');
            }
        }
        sb.append('\n');
        if (r.met()) {
            sb.append(String.format(
                    Locale.ROOT, "measured_worker_qps %.0f  (stopped: %s)%n", r.measuredWorkerQps(), r.stopReason()));
        } else {
            sb.append("measured_worker_qps: SLO not met at any step (stopped: ")
                    .append(r.stopReason())
                    .append(")\n");
        }
        sb.append(String.format(Locale.ROOT, "peak open tunnels   %d%n", r.peakTunnels()));
        if (r.memoryPerTunnelBytes() >= 0) {
            sb.append(String.format(
                    Locale.ROOT,
                    "memory per tunnel   %.1f KiB (worker RSS growth per added tunnel from step 1; baseline %d MiB)%n",
                    r.memoryPerTunnelBytes() / 1024.0,
                    r.baselineRssBytes() >> 20));
        }
        if (r.met()) {
            sb.append("size a cluster:     ")
                    .append(capacityLine(r.measuredWorkerQps()))
                    .append('\n');
        }
        return sb.toString();
    }

    public static Map<String, Object> json(String gateway, TrafficProfile profile, Slo slo, CapacityResult r) {
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("bench", "capacity");
        body.put("gateway", gateway);
        body.put("profile", profile.describe());
        Map<String, Object> s = new LinkedHashMap<>();
        s.put("p99Ms", slo.p99().toMillis());
        s.put("maxErrorRate", slo.maxErrorRate());
        body.put("slo", s);
        List<Object> steps = new ArrayList<>();
        for (StepResult x : r.steps()) {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("step", x.step());
            m.put("offeredRate", round(x.offeredRate()));
            m.put("achievedRate", round(x.achievedRate()));
            m.put("arrivals", x.arrivals());
            m.put("ok", x.ok());
            m.put("errors", x.errors());
            m.put("errorRate", x.errorRate());
            m.put("errorsByReason", new TreeMap<>(x.errorsByReason()));
            m.put("addedLatencyMs", quadMap(x.addedMs()));
            m.put("endToEndLatencyMs", quadMap(x.endToEndMs()));
            m.put("upstreamRttMedianMs", round(x.rttMedianMs()));
            m.put("peakOpenConnections", x.peakConnections());
            m.put("peakOpenTunnels", x.peakTunnels());
            m.put("workerCpuPercent", x.workerCpuPercent() < 0 ? null : round(x.workerCpuPercent()));
            m.put("workerRssBytes", x.workerRssBytes() < 0 ? null : x.workerRssBytes());
            m.put("meetsSlo", x.meetsSlo());
            steps.add(m);
        }
        body.put("steps", steps);
        body.put("measured_worker_qps", r.met() ? round(r.measuredWorkerQps()) : null);
        body.put("sloMet", r.met());
        body.put("stopReason", r.stopReason());
        body.put("peakOpenTunnels", r.peakTunnels());
        body.put("memoryPerTunnelBytes", r.memoryPerTunnelBytes() < 0 ? null : r.memoryPerTunnelBytes());
        body.put("capacityCommand", r.met() ? capacityLine(r.measuredWorkerQps()) : null);
        return body;
    }

    private static Map<String, Object> quadMap(double[] q) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("p50", round(q[0]));
        m.put("p95", round(q[1]));
        m.put("p99", round(q[2]));
        m.put("p999", round(q[3]));
        return m;
    }

    private static String quad(double[] q) {
        return String.format(Locale.ROOT, "%.1f/%.1f/%.1f/%.1f", q[0], q[1], q[2], q[3]);
    }

    private static double round(double d) {
        return Math.round(d * 100) / 100.0;
    }
}
