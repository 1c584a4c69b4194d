package dev.proxypool.sdk.provider;

/** Where a provider's bytes come from: a file or an HTTP(S) URL. */
interface ByteSource {

    /**
     * Opens the source for one fetch. The returned stream is capped at the provider's
     * {@code maxBytes} and at {@code deadline} (a {@link dev.proxypool.core.time.Ticker} reading).
     */
    Opened open(FetchContext ctx, long deadline) throws FetchFailure;

    /** An open source; closing releases the file or the HTTP connection. */
    record Opened(CappedInputStream stream, AutoCloseable resource) implements AutoCloseable {
        @Override
        public void close() {
            try {
                resource.close();
            } catch (Exception ignored) {
                // closing a failed connection may fail again; nothing left to release
            }
        }
    }
}
