package dev.proxypool.server.gateway;

import com.sun.management.UnixOperatingSystemMXBean;
import java.lang.management.ManagementFactory;
import java.lang.management.OperatingSystemMXBean;

/**
 * Default connection caps sized from the process's file-descriptor limit, so a flood of client
 * connections on the gateway cannot take the descriptors the REST listener, the upstream sockets,
 * the store and the log files need.
 *
 * <p>Budget: the descriptors still free at start ({@code limit - open}) minus the API listener's
 * reserve ({@link #apiReserve}) and a fixed headroom ({@value #HEADROOM}), halved because each
 * gateway connection may hold an upstream socket too. Without a known limit (not a Unix JVM) the
 * gateway is capped at {@value #UNKNOWN_LIMIT_CAP}.
 */
public final class ConnectionLimits {

    /** Descriptors kept for everything else: store and database pools, idle upstream links, jars, logs. */
    static final int HEADROOM = 64;
    /** The least the gateway is ever capped at by default. */
    static final int MIN_GATEWAY = 16;

    static final int UNKNOWN_LIMIT_CAP = 10_000;

    private final long limit;
    private final long open;

    ConnectionLimits(long limit, long open) {
        this.limit = limit;
        this.open = open;
    }

    /** The limits of this process, read now. */
    public static ConnectionLimits ofThisProcess() {
        OperatingSystemMXBean os = ManagementFactory.getOperatingSystemMXBean();
        if (os instanceof UnixOperatingSystemMXBean unix) {
            return new ConnectionLimits(unix.getMaxFileDescriptorCount(), unix.getOpenFileDescriptorCount());
        }
        return new ConnectionLimits(-1, -1);
    }

    /** The descriptor limit ({@code ulimit -n}), or -1 when unknown. */
    public long descriptorLimit() {
        return limit;
    }

    /**
     * Connections the REST listener accepts at once (its Helidon {@code maxTcpConnections}): one
     * eighth of the limit, between 32 and 1024. Further API clients wait in the backlog.
     */
    public int apiReserve() {
        if (limit <= 0) {
            return 1024;
        }
        return (int) Math.clamp(limit / 8, 32, 1024);
    }

    /** The default {@code server.maxConnections}: what is left after the reserve and headroom, halved. */
    public int gatewayDefault() {
        if (limit <= 0) {
            return UNKNOWN_LIMIT_CAP;
        }
        long free = limit - Math.max(0, open) - apiReserve() - HEADROOM;
        return (int) Math.clamp(free / 2, MIN_GATEWAY, Integer.MAX_VALUE);
    }
}
