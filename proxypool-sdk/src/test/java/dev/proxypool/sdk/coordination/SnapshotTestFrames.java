package dev.proxypool.sdk.coordination;

import java.util.zip.CRC32C;

/** Frame surgery for tests. */
final class SnapshotTestFrames {

    private SnapshotTestFrames() {}

    /** Rewrites the trailing CRC so a deliberately damaged frame passes the CRC check. */
    static void fixCrc(byte[] frame) {
        CRC32C crc = new CRC32C();
        crc.update(frame, 0, frame.length - 4);
        int v = (int) crc.getValue();
        for (int i = 0; i < 4; i++) {
            frame[frame.length - 4 + i] = (byte) (v >>> (24 - 8 * i));
        }
    }
}
