package dev.proxypool.sdk.provider;

import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The {@code fields} of a provider: normalized name → the source's field (a JSON key, a dotted
 * path into nested objects such as {@code geo.country}, or a CSV column). Unmapped names read the
 * field of the same name. {@code labels.<k>} maps one source field to label {@code k};
 * {@code labels} names an object of labels (JSON only).
 */
final class FieldMapping {

    static final List<String> KNOWN = List.of(
            "host",
            "port",
            "protocol",
            "credentialRef",
            "expiresAt",
            "ttlSeconds",
            "maxConcurrency",
            "weight",
            "labels",
            "labels.<key>");

    private final Map<String, String> fields;
    private final Map<String, String> labelFields = new TreeMap<>();

    FieldMapping(ProviderConfig config) {
        this.fields = config.fields();
        for (Map.Entry<String, String> e : fields.entrySet()) {
            String name = e.getKey();
            String key = config.keyName("fields." + name);
            if (name.equals("username") || name.equals("password")) {
                throw new IllegalArgumentException(key + ": credentials are never stored with a proxy; put them in"
                        + " the credential store and map a credentialRef field (or set credentialRef) instead");
            }
            if (name.startsWith("labels.")) {
                String label = name.substring("labels.".length());
                if (!LabelRules.validKey(label)) {
                    throw new IllegalArgumentException(key + ": invalid label key '" + label + "'");
                }
                labelFields.put(label, e.getValue());
            } else if (!KNOWN.contains(name)) {
                throw new IllegalArgumentException(key + ": unknown field (known: " + String.join(", ", KNOWN) + ")");
            }
            if (e.getValue().isEmpty()) {
                throw new IllegalArgumentException(key + ": names no source field");
            }
        }
    }

    /** The source field of normalized field {@code name}. */
    String source(String name) {
        return fields.getOrDefault(name, name);
    }

    /** Label key → source field, for {@code labels.<k>} mappings. */
    Map<String, String> labelFields() {
        return labelFields;
    }
}
