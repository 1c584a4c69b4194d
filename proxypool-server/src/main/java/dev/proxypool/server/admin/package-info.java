/**
 * The admin REST API (docs/design.md#configuration-source, K3–K8; docs/api.md): configuration CRUD over a
 * {@link dev.proxypool.server.persistence.ConfigStore}, pool inspection and operator actions on the
 * running {@link dev.proxypool.sdk.ProxyPool}, audit. Entry point: {@link dev.proxypool.server.admin.AdminService}.
 */
package dev.proxypool.server.admin;
