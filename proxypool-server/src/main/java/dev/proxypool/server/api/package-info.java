/**
 * Shared pieces of the REST API handlers: the feedback endpoint
 * ({@link dev.proxypool.server.api.FeedbackService}, {@code POST /v1/feedback}) and the JSON helpers
 * for error bodies and typed field reads. Handlers answer with the documented error codes and never
 * echo a secret or an unmasked proxy address.
 */
package dev.proxypool.server.api;
