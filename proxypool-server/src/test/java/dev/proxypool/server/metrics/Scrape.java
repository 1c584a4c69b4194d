package dev.proxypool.server.metrics;

import io.helidon.webserver.WebServer;
import io.helidon.webserver.observe.ObserveFeature;
import io.helidon.webserver.observe.metrics.MetricsObserver;
import java.net.InetAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** A real {@code /observe/metrics} endpoint over the global registry, scraped as Prometheus text. */
final class Scrape implements AutoCloseable {

    private final WebServer web = WebServer.builder()
            .address(InetAddress.getLoopbackAddress())
            .port(0)
            .shutdownHook(false)
            .addFeature(ObserveFeature.just(MetricsObserver.create()))
            .build()
            .start();
    private final HttpClient http = HttpClient.newHttpClient();

    /** Every sample line as {@code name{labels}} → value. */
    Map<String, Double> samples() throws Exception {
        HttpResponse<String> r = http.send(
                HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + web.port() + "/observe/metrics"))
                        .header("Accept", "text/plain")
                        .build(),
                HttpResponse.BodyHandlers.ofString());
        if (r.statusCode() != 200) {
            throw new AssertionError("metrics answered " + r.statusCode() + ": " + r.body());
        }
        Map<String, Double> out = new LinkedHashMap<>();
        for (String line : r.body().split("\n")) {
            if (line.isBlank() || line.startsWith("#")) {
                continue;
            }
            int space = line.lastIndexOf(' ');
            out.put(normalized(line.substring(0, space)), Double.parseDouble(line.substring(space + 1)));
        }
        return out;
    }

    /** {@code name{b="2",scope="application",a="1",}} → {@code name{a="1",b="2"}}: sorted, no registry scope. */
    private static String normalized(String sample) {
        int brace = sample.indexOf('{');
        if (brace < 0) {
            return sample;
        }
        java.util.TreeMap<String, String> labels = new java.util.TreeMap<>();
        Matcher m = LABEL.matcher(sample.substring(brace + 1, sample.length() - 1));
        while (m.find()) {
            if (!m.group(1).equals("scope")) {
                labels.put(m.group(1), m.group(2));
            }
        }
        if (labels.isEmpty()) {
            return sample.substring(0, brace);
        }
        StringBuilder b = new StringBuilder(sample.substring(0, brace)).append('{');
        labels.forEach((k, v) -> b.append(b.charAt(b.length() - 1) == '{' ? "" : ",")
                .append(k)
                .append("=\"")
                .append(v)
                .append('"'));
        return b.append('}').toString();
    }

    private static final Pattern LABEL = Pattern.compile("([a-zA-Z_][a-zA-Z0-9_]*)=\"((?:[^\"\\\\]|\\\\.)*)\"");

    /** The sample {@code name{k1="v1",k2="v2"}} with labels given in alphabetical order, if present. */
    static Optional<Double> value(Map<String, Double> samples, String name, String... labels) {
        StringBuilder key = new StringBuilder(name);
        if (labels.length > 0) {
            key.append('{');
            for (int i = 0; i < labels.length; i += 2) {
                key.append(i == 0 ? "" : ",")
                        .append(labels[i])
                        .append("=\"")
                        .append(labels[i + 1])
                        .append('"');
            }
            key.append('}');
        }
        return Optional.ofNullable(samples.get(key.toString()));
    }

    @Override
    public void close() {
        http.close();
        web.stop();
    }
}
