package dev.proxypool.sdk.remote;

import java.util.OptionalLong;

/**
 * The answer of {@code POST /v1/proxy/release}.
 *
 * @param leaseId         the lease
 * @param outcome         the outcome recorded (the first release's, for a repeated one)
 * @param alreadyReleased true when an earlier release had released it (nothing was released again)
 * @param heldMs          how long the lease was held, empty for a repeated release
 */
public record ReleaseReceipt(String leaseId, String outcome, boolean alreadyReleased, OptionalLong heldMs) {}
