/**
 * The admin REST API (SPEC §8-§11): configuration CRUD over a
 * {@link dev.proxypool.server.persistence.ConfigStore}, pool inspection and operator actions on the
 * running {@link dev.proxypool.sdk.ProxyPool}, audit. Entry point: {@link dev.proxypool.server.admin.AdminService}.
 */
package dev.proxypool.server.admin;
