/**
 * The {@code proxypool} command line ({@link dev.proxypool.cli.Main}, picocli): {@code serve},
 * {@code demo}, {@code validate}, {@code extract}, {@code echo}, {@code hash-secret},
 * {@code capacity}, {@code bench}, {@code example}, with {@code admin} in its own package and the
 * demo's local proxies and origin in {@code demo}. Commands parse flags, call the SDK (and the server
 * to start it), and print tables for people or JSON for scripts. The examples module's programs are
 * loaded by class name, never compiled against; the test kit is for tests only.
 * Failures are one line on stderr and a documented exit code (stack traces only with
 * {@code --verbose}); output never shows a secret and masks proxy addresses. No pool or protocol
 * logic lives here.
 */
package dev.proxypool.cli;
