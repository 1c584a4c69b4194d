/**
 * Sequential switching: {@link dev.proxypool.core.sequential.SequentialBoard} tracks where each
 * {@code strategy: sequential} routing stands in its upstream list and moves it on only after the
 * configured run of {@link dev.proxypool.core.sequential.FetchOutcome.Empty empty} fetches, with the
 * {@link dev.proxypool.core.sequential.Exhaustion} rule after the last upstream. Its state is exported
 * and restored as {@link dev.proxypool.core.sequential.SequentialState} and every change is told to
 * {@link dev.proxypool.core.sequential.SequentialListener}s outside the lock. It must not fetch,
 * persist or pick proxies itself: the pipeline feeds it and the dispatcher reads its position.
 */
package dev.proxypool.core.sequential;
