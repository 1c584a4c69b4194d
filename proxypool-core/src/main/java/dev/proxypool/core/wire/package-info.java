/**
 * The wire codecs every part of ProxyPool shares: the one HTTP/1 message-head parser ({@link
 * dev.proxypool.core.wire.HeadReader} for the bytes, {@link dev.proxypool.core.wire.Http1Parser} for the
 * start line and the header block, {@link dev.proxypool.core.wire.Tokens} for the character
 * classes, {@link dev.proxypool.core.wire.ChunkedBody} for a chunked body read from a blocking
 * stream) and the one SOCKS5 codec ({@link dev.proxypool.core.wire.Socks5Codec}: constants, message
 * encoding and decoding, reply codes with their meanings). Pure Java, no I/O framework: the gateway
 * feeds them the bytes its event loop collected, the dialer, the validator, the CLI and the test kit
 * the bytes of a blocking socket. Exported to the SDK, the server and the CLI only.
 */
package dev.proxypool.core.wire;
