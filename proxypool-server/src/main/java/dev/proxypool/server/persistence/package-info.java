/**
 * Admin persistence (SPEC §8, §10; ARCHITECTURE decision 5): providers, upstreams, routings,
 * clients, sequential states and the audit log behind one {@link dev.proxypool.server.persistence.ConfigStore},
 * in memory (embedded default, seeded from {@code proxypool.yaml}) or in PostgreSQL (HikariCP + jOOQ
 * plain-SQL DSL, versioned migrations under {@code db/migration/} applied by
 * {@link dev.proxypool.server.persistence.Migrator}).
 */
package dev.proxypool.server.persistence;
