/**
 * The local ASN database for exit-network lookups (docs/design.md#collection-pipeline, P9): the public ip-location-db
 * CSV layout loaded into sorted primitive arrays ({@link dev.proxypool.sdk.asn.AsnDatabase}),
 * verified against its {@code .sha256} sidecar and a maximum age
 * ({@link dev.proxypool.sdk.asn.AsnDatabaseLoader}), and swapped atomically only on a fully
 * verified load ({@link dev.proxypool.sdk.asn.AsnDatabaseHolder}). When the database is missing,
 * corrupt, mismatched or stale, {@link dev.proxypool.sdk.asn.AsnStatus#publishable()} is false and
 * the pipeline keeps the previous validated snapshot. No address is ever sent to a remote API.
 */
package dev.proxypool.sdk.asn;
