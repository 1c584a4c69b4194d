/**
 * The remote acquire/release API ({@code /v1/proxy/acquire}, {@code /v1/proxy/release},
 * {@code /v1/proxy/list}; docs/api.md): a client that uses a proxy directly leases it from the pool,
 * which holds the proxy's capacity for the lease as for one gateway request and takes the reported
 * outcome into its health. {@link dev.proxypool.server.api.lease.ProxyLeaseService} is the Helidon
 * {@code HttpService}; {@code LeaseBook} keeps this process's leases (in memory), expires them and
 * answers idempotent acquires; {@code LeaseLedger} counts acquires and releases per routing and
 * upstream and keeps the recent ones for the admin API.
 */
package dev.proxypool.server.api.lease;
