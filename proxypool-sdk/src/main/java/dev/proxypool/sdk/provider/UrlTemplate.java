package dev.proxypool.sdk.provider;

import dev.proxypool.core.sequential.FetchOutcome;
import java.net.MalformedURLException;
import java.net.URI;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * An {@code http(s)} URL with {@code {param}} placeholders, filled per fetch from the upstream's
 * params, each value URL-encoded (a space becomes {@code %20}, {@code &} becomes {@code %26}), so a
 * param can never add query parameters or path segments of its own.
 */
final class UrlTemplate {

    private final String key;
    private final List<String> parts = new ArrayList<>(); // literal, name, literal, name, ..., literal

    UrlTemplate(String key, String template) {
        this.key = key;
        String lower = template.toLowerCase(Locale.ROOT);
        if (!lower.startsWith("http://") && !lower.startsWith("https://")) {
            throw new IllegalArgumentException(key + ": only http:// and https:// URLs are supported");
        }
        int i = 0;
        StringBuilder literal = new StringBuilder();
        while (i < template.length()) {
            char c = template.charAt(i);
            if (c == '}') {
                throw new IllegalArgumentException(key + ": unmatched '}' at position " + i);
            }
            if (c != '{') {
                literal.append(c);
                i++;
                continue;
            }
            int end = template.indexOf('}', i);
            if (end < 0) {
                throw new IllegalArgumentException(key + ": unclosed '{' at position " + i);
            }
            String name = template.substring(i + 1, end);
            if (!name.matches("[A-Za-z0-9_]+")) {
                throw new IllegalArgumentException(
                        key + ": placeholder '{" + name + "}' must be letters, digits or '_'");
            }
            parts.add(literal.toString());
            parts.add(name);
            literal.setLength(0);
            i = end + 1;
        }
        parts.add(literal.toString());
        if (parts.size() == 1) {
            try {
                URI.create(template).toURL();
            } catch (IllegalArgumentException | MalformedURLException e) {
                throw new IllegalArgumentException(key + ": not a valid URL", e);
            }
        }
    }

    /** The filled URL. */
    URI fill(Map<String, String> params) throws FetchFailure {
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < parts.size(); i++) {
            if (i % 2 == 0) {
                sb.append(parts.get(i));
                continue;
            }
            String name = parts.get(i);
            String value = params.get(name);
            if (value == null) {
                throw new FetchFailure(
                        FetchOutcome.ErrorKind.TEMPLATE,
                        key + ": placeholder {" + name + "} has no upstream param '" + name + "'");
            }
            sb.append(URLEncoder.encode(value, StandardCharsets.UTF_8).replace("+", "%20"));
        }
        try {
            URI uri = URI.create(sb.toString());
            if (uri.getHost() == null) {
                throw new IllegalArgumentException("no host");
            }
            return uri;
        } catch (IllegalArgumentException e) {
            throw new FetchFailure(FetchOutcome.ErrorKind.TEMPLATE, key + ": the filled URL is not valid");
        }
    }

    /** The placeholder names, in order. */
    List<String> placeholders() {
        List<String> names = new ArrayList<>();
        for (int i = 1; i < parts.size(); i += 2) {
            names.add(parts.get(i));
        }
        return names;
    }
}
