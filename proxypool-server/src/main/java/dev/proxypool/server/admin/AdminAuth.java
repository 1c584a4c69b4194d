package dev.proxypool.server.admin;

import dev.proxypool.sdk.credentials.Secret;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.List;
import java.util.Optional;

/**
 * The admin bearer token ({@code admin.token}), separate from every client credential (docs/design.md#security, X3).
 * The presented token and the configured one are both reduced to SHA-256 and compared with
 * {@link MessageDigest#isEqual}: the time taken depends on neither the token's content nor its
 * length. Without a configured token the admin API is disabled.
 */
final class AdminAuth {

    enum Verdict {
        ALLOWED,
        DISABLED,
        DENIED
    }

    private final byte[] digest; // null = disabled

    AdminAuth(Optional<Secret> token) {
        this.digest =
                token.filter(t -> !t.isEmpty()).map(t -> sha256(t.reveal())).orElse(null);
    }

    boolean enabled() {
        return digest != null;
    }

    /** @param authorization every {@code Authorization} header value of the request */
    Verdict check(List<String> authorization) {
        if (digest == null) {
            return Verdict.DISABLED;
        }
        if (authorization.size() != 1) {
            return Verdict.DENIED;
        }
        String h = authorization.getFirst();
        if (h.length() > 4096 || !h.regionMatches(true, 0, "Bearer ", 0, 7)) {
            return Verdict.DENIED;
        }
        String presented = h.substring(7).strip();
        return MessageDigest.isEqual(sha256(presented), digest) && !presented.isEmpty()
                ? Verdict.ALLOWED
                : Verdict.DENIED;
    }

    private static byte[] sha256(String s) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(s.getBytes(StandardCharsets.UTF_8));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is part of every JDK", e);
        }
    }
}
