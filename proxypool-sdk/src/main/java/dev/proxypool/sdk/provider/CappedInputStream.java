package dev.proxypool.sdk.provider;

import dev.proxypool.core.time.Ticker;
import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.InterruptedIOException;

/**
 * Reads at most {@code maxBytes} from a source and fails on the first byte past the cap, so an
 * oversized answer is never buffered: at most {@code maxBytes + 1} bytes are ever read. Also
 * fails once the fetch deadline has passed (checked between reads; the socket read timeout bounds
 * each read). Remembers which limit fired, because parsers wrap I/O errors in their own.
 */
final class CappedInputStream extends FilterInputStream {

    private final long maxBytes;
    private final Ticker ticker;
    private final long deadline;
    private long count;
    private boolean overCap;
    private boolean pastDeadline;

    CappedInputStream(InputStream in, long maxBytes, Ticker ticker, long deadline) {
        super(in);
        this.maxBytes = maxBytes;
        this.ticker = ticker;
        this.deadline = deadline;
    }

    @Override
    public int read() throws IOException {
        check();
        if (count >= maxBytes) {
            return probePastCap();
        }
        int b = in.read();
        if (b >= 0) {
            count++;
        }
        return b;
    }

    @Override
    public int read(byte[] b, int off, int len) throws IOException {
        check();
        if (len == 0) {
            return 0;
        }
        if (count >= maxBytes) {
            return probePastCap(); // -1 at the end, else it throws
        }
        int n = in.read(b, off, (int) Math.min(len, maxBytes - count));
        if (n > 0) {
            count += n;
        }
        return n;
    }

    @Override
    public long skip(long n) throws IOException {
        byte[] buf = new byte[(int) Math.min(8192, Math.max(0, n))];
        long skipped = 0;
        while (skipped < n) {
            int r = read(buf, 0, (int) Math.min(buf.length, n - skipped));
            if (r < 0) {
                break;
            }
            skipped += r;
        }
        return skipped;
    }

    @Override
    public boolean markSupported() {
        return false;
    }

    /** At the cap: the end of the stream is fine (-1); one more byte is a size-limit failure. */
    private int probePastCap() throws IOException {
        int b = in.read();
        if (b < 0) {
            return -1;
        }
        count++;
        overCap = true;
        throw new IOException("size limit of " + maxBytes + " bytes exceeded");
    }

    private void check() throws IOException {
        if (overCap) {
            throw new IOException("size limit of " + maxBytes + " bytes exceeded");
        }
        if (ticker.read() - deadline > 0) {
            pastDeadline = true;
            throw new InterruptedIOException("fetch deadline passed");
        }
    }

    long count() {
        return count;
    }

    boolean overCap() {
        return overCap;
    }

    boolean pastDeadline() {
        return pastDeadline;
    }
}
