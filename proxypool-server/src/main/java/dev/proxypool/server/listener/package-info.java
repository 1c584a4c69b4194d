/**
 * The REST API listener's defences on Helidon SE: a deadline for each request head from accept
 * ({@link dev.proxypool.server.listener.ApiHeadDeadline}, with the chunked framing it checks), the
 * count of connections it closed and why ({@link dev.proxypool.server.listener.ListenerCloses}), and
 * a watchdog that restarts the listener when it stops accepting
 * ({@link dev.proxypool.server.listener.ApiListenerWatchdog}).
 */
package dev.proxypool.server.listener;
