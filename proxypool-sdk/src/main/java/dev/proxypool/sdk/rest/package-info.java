/**
 * The REST API's JSON bodies, each defined once as a record bound by Jackson through
 * {@link dev.proxypool.sdk.json.JsonCodec}: the server writes and reads them, the SDK's
 * {@link dev.proxypool.sdk.remote.DistributionClient} reads and writes the same records, and each
 * record's components are the properties of the OpenAPI schema of the same name without the
 * {@code Body} suffix ({@code ExtractionRequestBody} is {@code #/components/schemas/ExtractionRequest}),
 * which the server's contract tests check.
 *
 * <p>{@link dev.proxypool.sdk.rest.RestJson} binds them: strictly for a server reading a request (an
 * unknown field, a wrong type, a fraction or a number out of range is refused with a message naming
 * the field), leniently for a client reading an answer (a newer server may add fields).
 */
package dev.proxypool.sdk.rest;
