package dev.proxypool.sdk.rest;

/**
 * The {@code 200} answer of {@code POST /v1/proxy/release}.
 *
 * @param leaseId         the lease
 * @param state           its state now
 * @param outcome         the outcome recorded (the first one on a repeated release)
 * @param alreadyReleased whether an earlier call released it
 * @param heldMs          how long it was held, or null on a repeated release
 */
public record ReleaseReceiptBody(String leaseId, String state, String outcome, Boolean alreadyReleased, Long heldMs) {}
