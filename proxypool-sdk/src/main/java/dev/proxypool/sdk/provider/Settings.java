package dev.proxypool.sdk.provider;

import dev.proxypool.core.model.CredentialRef;
import dev.proxypool.core.model.Protocol;
import java.time.Duration;
import java.time.format.DateTimeParseException;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * Typed, validated access to one provider's settings. Unknown keys are refused so that a typo
 * ({@code tokenENV}) fails at start instead of silently fetching without a token.
 */
final class Settings {

    static final long DEFAULT_MAX_BYTES = 5L * 1024 * 1024;
    static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(10);
    static final Set<String> COMMON = Set.of(
            "protocol",
            "credentialRef",
            "maxBytes",
            "timeout",
            "maxConcurrency",
            "weight",
            "expiresAtFormat",
            "expiresAtZone");
    static final Set<String> REMOTE = Set.of("url", "tokenEnv", "username", "passwordEnv");

    private final ProviderConfig config;

    /** The remote-source keys plus {@code keys}: what a type that may read a URL accepts. */
    static Set<String> remoteAnd(String... keys) {
        TreeSet<String> s = new TreeSet<>(REMOTE);
        s.addAll(List.of(keys));
        return s;
    }

    Settings(ProviderConfig config, Set<String> accepted) {
        this.config = config;
        for (String key : config.settings().keySet()) {
            if (key.startsWith("labels.")) {
                continue;
            }
            if (!accepted.contains(key) && !COMMON.contains(key)) {
                TreeSet<String> all = new TreeSet<>(accepted);
                all.addAll(COMMON);
                all.add("labels.<key>");
                throw new IllegalArgumentException(config.keyName(key) + ": unknown setting for type '" + config.type()
                        + "' (accepted: " + String.join(", ", all) + ")");
            }
        }
    }

    String key(String key) {
        return config.keyName(key);
    }

    Optional<String> get(String key) {
        String v = config.settings().get(key);
        return v == null || v.isEmpty() ? Optional.empty() : Optional.of(v);
    }

    String require(String key) {
        return get(key).orElseThrow(
                        () -> new IllegalArgumentException(key(key) + " is required for type '" + config.type() + "'"));
    }

    Protocol protocolOrNull() {
        Optional<String> v = get("protocol");
        if (v.isEmpty()) {
            return null;
        }
        try {
            return Protocol.parse(v.get());
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(key("protocol") + ": " + e.getMessage(), e);
        }
    }

    CredentialRef credentialRef() {
        try {
            return CredentialRef.of(get("credentialRef").orElse(null));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(key("credentialRef") + ": " + e.getMessage(), e);
        }
    }

    int positiveInt(String key, int dflt) {
        Optional<String> v = get(key);
        if (v.isEmpty()) {
            return dflt;
        }
        try {
            int n = Integer.parseInt(v.get());
            if (n >= 1) {
                return n;
            }
        } catch (NumberFormatException ignored) {
            // fall through to the message below
        }
        throw new IllegalArgumentException(key(key) + ": '" + v.get() + "' is not a positive integer");
    }

    /** A byte size: {@code 1048576}, {@code 512KB}, {@code 5MB} (binary multiples). */
    long bytes(String key, long dflt) {
        Optional<String> v = get(key);
        if (v.isEmpty()) {
            return dflt;
        }
        String s = v.get().trim().toUpperCase(Locale.ROOT);
        long mult = 1;
        String digits = s;
        if (s.endsWith("KB") || s.endsWith("MB")) {
            mult = s.endsWith("KB") ? 1024 : 1024 * 1024;
            digits = s.substring(0, s.length() - 2);
        } else if (s.endsWith("B")) {
            digits = s.substring(0, s.length() - 1);
        }
        digits = digits.trim();
        try {
            long n = Long.parseLong(digits);
            if (n >= 1 && n <= 1024L * 1024 * 1024 / mult) {
                return n * mult;
            }
        } catch (NumberFormatException ignored) {
            // fall through
        }
        throw new IllegalArgumentException(
                key(key) + ": '" + v.get() + "' is not a size between 1 byte and 1GB" + " (e.g. 5MB, 512KB, 1048576)");
    }

    Duration duration(String key, Duration dflt) {
        Optional<String> v = get(key);
        if (v.isEmpty()) {
            return dflt;
        }
        Duration d = parseDuration(v.get());
        if (d == null || d.isZero() || d.isNegative()) {
            throw new IllegalArgumentException(
                    key(key) + ": '" + v.get() + "' is not a positive duration" + " (e.g. 10s, 500ms, 2m, PT10S)");
        }
        return d;
    }

    /** {@code 500ms}, {@code 10s}, {@code 2m}, {@code 1h}, or ISO-8601 {@code PT10S}; null when unreadable. */
    static Duration parseDuration(String text) {
        String s = text.trim().toLowerCase(Locale.ROOT);
        try {
            if (s.startsWith("pt") || s.startsWith("p")) {
                return Duration.parse(s.toUpperCase(Locale.ROOT));
            }
            if (s.endsWith("ms")) {
                return Duration.ofMillis(Long.parseLong(s.substring(0, s.length() - 2)));
            }
            long n = Long.parseLong(s.substring(0, s.length() - 1));
            return switch (s.charAt(s.length() - 1)) {
                case 's' -> Duration.ofSeconds(n);
                case 'm' -> Duration.ofMinutes(n);
                case 'h' -> Duration.ofHours(n);
                default -> null;
            };
        } catch (NumberFormatException | DateTimeParseException | StringIndexOutOfBoundsException e) {
            return null;
        }
    }

    /** Static labels from {@code labels.<k>} settings. */
    Map<String, String> staticLabels() {
        TreeMap<String, String> out = new TreeMap<>();
        for (Map.Entry<String, String> e : config.settings().entrySet()) {
            if (e.getKey().startsWith("labels.")) {
                String k = e.getKey().substring("labels.".length());
                if (!LabelRules.validKey(k) || !LabelRules.validValue(e.getValue())) {
                    throw new IllegalArgumentException(key(e.getKey()) + ": invalid label (key [A-Za-z0-9_.-]{1,64},"
                            + " value at most 256 printable characters)");
                }
                out.put(k, e.getValue());
            }
        }
        return out;
    }
}
