/**
 * Operational arithmetic that the runbook gives as formulas, such as the worker count needed for a
 * peak load ({@link dev.proxypool.core.ops.WorkerCapacity}). Pure functions of the figures passed
 * in: nothing here measures, reads configuration or talks to a running system.
 */
package dev.proxypool.core.ops;
