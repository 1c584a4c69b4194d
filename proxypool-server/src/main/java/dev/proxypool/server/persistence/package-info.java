/**
 * Admin persistence (docs/design.md#configuration-source, K3–K8; docs/architecture.md#storage): providers, upstreams, routings,
 * clients, sequential states and the audit log behind one {@link dev.proxypool.server.persistence.ConfigStore},
 * in memory (embedded default, seeded from {@code proxypool.yaml}) or in PostgreSQL (HikariCP + jOOQ
 * plain-SQL DSL, versioned migrations under {@code db/migration/} applied by
 * {@link dev.proxypool.server.persistence.Migrator}).
 */
package dev.proxypool.server.persistence;
