package dev.proxypool.server.persistence;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/**
 * One stored admin entity: its type, name and document. The document has the shape of the
 * entity's YAML block (docs/configuration.md) in JSON, {@code name} included, so the same validation reads a
 * file and an admin request. Client documents hold {@value #SECRET_HASH} (PBKDF2, as in the YAML)
 * and {@value #TOKEN_HASH} (SHA-256 hex of the bearer token) instead of the secrets themselves.
 *
 * <p>{@link #publicDoc()} is what leaves the process (API answers, audit rows): secret hashes are
 * replaced by {@code hasSecret}/{@code hasToken}, the user info and query values of provider
 * URLs by {@code ***} ({@link SecretUrls}).
 *
 * @param doc unmodifiable JSON tree (see {@link JsonTree})
 */
public record Entity(EntityType type, String name, Map<String, Object> doc) {

    public static final String SECRET_HASH = "secretHash";
    public static final String TOKEN_HASH = "tokenHash";

    public Entity {
        Objects.requireNonNull(type, "type");
        if (name == null || name.isBlank()) {
            throw new IllegalArgumentException(type.plural() + "[].name: is required");
        }
        doc = JsonTree.freeze(doc);
        if (!name.equals(doc.get("name"))) {
            throw new IllegalArgumentException(type.key(name) + ".name: document names '" + doc.get("name") + "'");
        }
    }

    /** The document without secrets: safe for API answers, audit rows and logs. */
    public Map<String, Object> publicDoc() {
        Map<String, Object> out = new LinkedHashMap<>();
        switch (type) {
            case CLIENT -> {
                doc.forEach((k, v) -> {
                    if (!k.equals(SECRET_HASH) && !k.equals(TOKEN_HASH)) {
                        out.put(k, v);
                    }
                });
                out.put("hasSecret", doc.get(SECRET_HASH) != null);
                out.put("hasToken", doc.get(TOKEN_HASH) != null);
            }
            case PROVIDER ->
                doc.forEach((k, v) -> out.put(k, k.equals("url") && v instanceof String s ? SecretUrls.mask(s) : v));
            case UPSTREAM, ROUTING -> out.putAll(doc);
        }
        return JsonTree.freeze(out);
    }

    @Override
    public String toString() {
        return type.key(name);
    }
}
