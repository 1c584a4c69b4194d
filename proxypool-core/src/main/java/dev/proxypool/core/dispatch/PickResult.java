package dev.proxypool.core.dispatch;

/**
 * The outcome of a pick: a reserved proxy, or why none could be had. Switch on it exhaustively.
 */
public sealed interface PickResult permits Picked, NoCandidate {}
