/**
 * The one place that reads and writes JSON ({@link dev.proxypool.sdk.json.JsonCodec}, Jackson
 * underneath) and sets its limits for untrusted input: nesting depth, document, string and number
 * lengths, keys written twice in one object, data after the value
 * ({@link dev.proxypool.sdk.json.MalformedJsonException} names what is wrong).
 */
package dev.proxypool.sdk.json;
