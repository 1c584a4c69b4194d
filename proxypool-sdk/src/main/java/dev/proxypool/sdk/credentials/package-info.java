/**
 * Proxy credentials, kept apart from everything else (docs/design.md#security, X6): the pool, snapshots, Redis and the
 * API carry a {@link dev.proxypool.core.model.CredentialRef}; only the dialer resolves it, at
 * connect time, through a {@link dev.proxypool.sdk.credentials.CredentialStore}. A ref that cannot
 * be resolved fails closed ({@link dev.proxypool.sdk.credentials.CredentialsUnavailableException}),
 * never as an unauthenticated attempt. Secrets are {@link dev.proxypool.sdk.credentials.Secret}s,
 * whose {@code toString()} is {@code ***}.
 */
package dev.proxypool.sdk.credentials;
