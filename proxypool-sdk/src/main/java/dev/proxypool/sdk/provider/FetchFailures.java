package dev.proxypool.sdk.provider;

import dev.proxypool.core.sequential.FetchOutcome;
import java.io.InterruptedIOException;
import java.net.SocketTimeoutException;
import java.net.http.HttpTimeoutException;

/** Classifies I/O exceptions into fetch errors by their cause chain, keeping only class names. */
final class FetchFailures {

    private FetchFailures() {}

    static FetchFailure network(Throwable e) {
        Throwable root = e;
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof SocketTimeoutException
                    || t instanceof HttpTimeoutException
                    || t instanceof InterruptedIOException) {
                return new FetchFailure(
                        FetchOutcome.ErrorKind.TIMEOUT,
                        "timed out (" + t.getClass().getSimpleName() + ")");
            }
            root = t;
            if (t.getCause() == t) {
                break;
            }
        }
        if (Thread.currentThread().isInterrupted()) {
            return new FetchFailure(FetchOutcome.ErrorKind.TIMEOUT, "fetch cancelled at its deadline");
        }
        return new FetchFailure(FetchOutcome.ErrorKind.NETWORK, root.getClass().getSimpleName());
    }
}
