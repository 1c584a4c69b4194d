package dev.proxypool.server.admin;

import dev.proxypool.core.security.SecretHash;
import dev.proxypool.sdk.config.ConfigLoader;
import dev.proxypool.server.persistence.ClientDocs;
import dev.proxypool.server.persistence.Entity;
import dev.proxypool.server.persistence.EntityType;
import dev.proxypool.server.persistence.JsonTree;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * A client body of the admin API turned into what may be stored, before the write transaction
 * (PBKDF2 is deliberately slow and must not run while the configuration is locked).
 *
 * <pre>
 * {"name": "alice", "secret": "...", "token": "...", "quota": {"extractionsPerHour": 1000}, "rateLimit": {"rps": 200}}
 * </pre>
 * {@code secret} (plain, hashed here with PBKDF2) or {@code secretHash} (from {@code proxypool
 * hash-secret}); {@code token} (plain, at least 16 characters, stored as SHA-256). On an update a
 * secret or token left out is kept, and {@code null} removes it.
 */
record ClientInput(Map<String, Object> rest, Change secretHash, Change tokenHash) {

    static final List<String> KEYS = List.of("name", "secret", "secretHash", "token", "quota", "rateLimit");

    /** What to do with one stored hash. */
    sealed interface Change {
        record Keep() implements Change {}

        record Remove() implements Change {}

        record Set(String hash) implements Change {}
    }

    static ClientInput from(String name, Map<String, Object> body) {
        String key = EntityType.CLIENT.key(name);
        for (String k : body.keySet()) {
            if (!KEYS.contains(k)) {
                throw AdminException.invalid(
                        key + "." + k + ": unknown key (known here: " + String.join(", ", KEYS) + ")");
            }
        }
        Map<String, Object> rest = new LinkedHashMap<>(body);
        rest.remove("secret");
        rest.remove("secretHash");
        rest.remove("token");
        boolean hasSecret = body.containsKey("secret");
        boolean hasHash = body.containsKey("secretHash");
        if (hasSecret && hasHash && body.get("secret") != null && body.get("secretHash") != null) {
            throw AdminException.invalid(key + ".secret: give either secretHash or secret, not both");
        }
        Change secret = new Change.Keep();
        if (hasHash) {
            Object v = body.get("secretHash");
            if (v == null) {
                secret = new Change.Remove();
            } else if (v instanceof String s && !s.isBlank()) {
                try {
                    SecretHash.requireValid(s.strip(), key + ".secretHash");
                } catch (IllegalArgumentException e) {
                    throw AdminException.invalid(e.getMessage());
                }
                secret = new Change.Set(s.strip());
            } else {
                throw AdminException.invalid(
                        key + ".secretHash: must be a non-empty string, got " + JsonTree.typeName(v));
            }
        }
        if (hasSecret && !(secret instanceof Change.Set)) {
            Object v = body.get("secret");
            if (v == null) {
                secret = new Change.Remove();
            } else if (v instanceof String s && s.length() >= ConfigLoader.MIN_CLIENT_SECRET_LENGTH) {
                secret = new Change.Set(SecretHash.hash(s.toCharArray()));
            } else if (v instanceof String) {
                // the config file's rule (clients[].secret)
                throw AdminException.invalid(
                        key + ".secret: must be at least " + ConfigLoader.MIN_CLIENT_SECRET_LENGTH + " characters");
            } else {
                throw AdminException.invalid(key + ".secret: must be a non-empty string, got " + JsonTree.typeName(v));
            }
        }
        Change token = new Change.Keep();
        if (body.containsKey("token")) {
            Object v = body.get("token");
            if (v == null) {
                token = new Change.Remove();
            } else if (v instanceof String s && s.strip().length() >= 16) {
                token = new Change.Set(ClientDocs.tokenHash(s.strip()));
            } else if (v instanceof String) {
                throw AdminException.invalid(key + ".token: must be at least 16 characters");
            } else {
                throw AdminException.invalid(key + ".token: must be a string, got " + JsonTree.typeName(v));
            }
        }
        return new ClientInput(rest, secret, token);
    }

    /** The document to validate: the stored secret hash merged in, the token hash kept aside. */
    Map<String, Object> docFor(Optional<Entity> existing) {
        Map<String, Object> d = new LinkedHashMap<>(rest);
        resolve(secretHash, existing, Entity.SECRET_HASH).ifPresent(h -> d.put(Entity.SECRET_HASH, h));
        return d;
    }

    Optional<String> tokenHashFor(Optional<Entity> existing) {
        return resolve(tokenHash, existing, Entity.TOKEN_HASH);
    }

    private static Optional<String> resolve(Change c, Optional<Entity> existing, String key) {
        return switch (c) {
            case Change.Keep k ->
                existing.flatMap(e -> e.doc().get(key) instanceof String s ? Optional.of(s) : Optional.empty());
            case Change.Remove r -> Optional.empty();
            case Change.Set s -> Optional.of(s.hash());
        };
    }
}
