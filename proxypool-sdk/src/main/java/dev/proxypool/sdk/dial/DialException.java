package dev.proxypool.sdk.dial;

import dev.proxypool.core.health.FailureKind;
import java.io.IOException;

/**
 * A dial through an upstream proxy failed, classified for passive health: the
 * {@link FailureKind}, the {@link DialStage} and the proxy's opaque id.
 *
 * <p>The message names the proxy by id and masked address and never holds a secret. It carries no
 * cause on purpose: JDK messages name full addresses ({@code UnknownHostException},
 * certificate-name mismatches); the cause's type is in the message instead.
 */
public final class DialException extends IOException {

    private final FailureKind kind;
    private final DialStage stage;
    private final String proxyId;
    private final boolean destinationForbidden;

    public DialException(FailureKind kind, DialStage stage, String proxyId, String message) {
        this(kind, stage, proxyId, message, false);
    }

    /**
     * @param destinationForbidden the proxy's policy refused this destination (HTTP 403 to {@code CONNECT},
     *                             SOCKS5 reply 2): the caller bans the proxy for that domain
     */
    public DialException(
            FailureKind kind, DialStage stage, String proxyId, String message, boolean destinationForbidden) {
        super(message);
        this.destinationForbidden = destinationForbidden;
        if (kind == null || stage == null) {
            throw new IllegalArgumentException("a dial failure needs a kind and a stage");
        }
        this.kind = kind;
        this.stage = stage;
        this.proxyId = proxyId;
    }

    public FailureKind kind() {
        return kind;
    }

    public DialStage stage() {
        return stage;
    }

    /** The opaque id of the proxy dialled ({@code X-ProxyPool-Proxy}). */
    public String proxyId() {
        return proxyId;
    }

    /**
     * True when a working proxy refused this destination by its policy (HTTP 403 to {@code CONNECT},
     * SOCKS5 "connection not allowed by ruleset"): a per-domain signal, like a destination's own 403.
     */
    public boolean destinationForbidden() {
        return destinationForbidden;
    }

    /** False when the dial failed before contacting the proxy (missing credentials). */
    public boolean proxyContacted() {
        return stage.proxyContacted();
    }
}
