/** The operations console: static pages at {@code /console/} over the admin API. */
package dev.proxypool.server.console;
