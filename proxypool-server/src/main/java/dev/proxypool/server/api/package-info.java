/**
 * Shared pieces of the REST API handlers: {@link dev.proxypool.server.api.BearerToken}, the one
 * reading of {@code Authorization: Bearer} and the one {@code 401} challenge of every path family; the feedback endpoint
 * ({@link dev.proxypool.server.api.FeedbackService}, {@code POST /v1/feedback}), the JSON helpers
 * for error bodies and typed field reads, and one proxy's health record as the admin and node APIs
 * show it ({@link dev.proxypool.server.api.HealthRecord}). Handlers answer with the documented error codes and never
 * echo a secret or an unmasked proxy address.
 */
package dev.proxypool.server.api;
