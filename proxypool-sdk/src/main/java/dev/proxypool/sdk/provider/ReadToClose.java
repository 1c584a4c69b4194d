package dev.proxypool.sdk.provider;

import io.helidon.common.buffers.DataReader;
import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;

/**
 * The body of an answer that declares neither {@code Content-Length} nor chunked encoding (an
 * HTTP/1.0 server, or one that closes to end its answer): its end is the connection's close, as
 * HTTP/1.0 allows. Helidon's reader reports that close as
 * {@link DataReader.InsufficientDataAvailableException}; here it is the end of the stream.
 */
final class ReadToClose extends FilterInputStream {

    ReadToClose(InputStream in) {
        super(in);
    }

    @Override
    public int read() throws IOException {
        try {
            return super.read();
        } catch (DataReader.InsufficientDataAvailableException e) {
            return -1;
        }
    }

    @Override
    public int read(byte[] b, int off, int len) throws IOException {
        try {
            return super.read(b, off, len);
        } catch (DataReader.InsufficientDataAvailableException e) {
            return -1;
        }
    }
}
