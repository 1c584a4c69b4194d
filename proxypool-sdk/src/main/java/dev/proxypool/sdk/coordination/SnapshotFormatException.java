package dev.proxypool.sdk.coordination;

/**
 * A snapshot or delta frame that cannot be decoded: wrong magic or format version, a failed CRC,
 * a truncated body, a length or reference out of bounds. A subscriber treats it like a version gap
 * (it keeps its last complete snapshot and resyncs from the full snapshot).
 */
public final class SnapshotFormatException extends IllegalArgumentException {

    public SnapshotFormatException(String message) {
        super(message);
    }

    public SnapshotFormatException(String message, Throwable cause) {
        super(message, cause);
    }
}
