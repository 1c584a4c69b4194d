/**
 * The collection pipeline: {@link dev.proxypool.sdk.pipeline.CollectionPipeline} fetches due
 * upstreams, classifies each answer and feeds the sequential board, validates and ranks the
 * candidates, and publishes the result through {@link dev.proxypool.sdk.pipeline.PoolPublisher} as one
 * {@link dev.proxypool.sdk.pipeline.Publication}, so readers see the old complete pool or the new one,
 * never a mix. When scaled out, a stage writes only while this process holds its stage lease. The
 * pipeline must not serve requests or pick proxies: it only changes what the pool holds.
 */
package dev.proxypool.sdk.pipeline;
