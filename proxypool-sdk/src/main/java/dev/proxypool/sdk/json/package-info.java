/**
 * Guards for untrusted JSON that the parsers do not give: nesting depth counted before parsing
 * ({@link dev.proxypool.sdk.json.JsonNesting}), keys written twice in one object
 * ({@link dev.proxypool.sdk.json.JsonDuplicateKeys}), and string literals for the few bodies written
 * by hand ({@link dev.proxypool.sdk.json.JsonText}). Small, allocation-light text checks with no
 * dependency beyond the JDK; this package is not a JSON parser or binder.
 */
package dev.proxypool.sdk.json;
