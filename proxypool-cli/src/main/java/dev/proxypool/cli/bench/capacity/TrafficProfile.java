package dev.proxypool.cli.bench.capacity;

import java.time.Duration;
import java.util.Locale;

/**
 * What {@code proxypool bench capacity} offers the gateway: the protocol mix (shares of arrivals),
 * keep-alive reuse, sizes, how long a tunnel stays open, the upstream round trip and failures, and
 * whether TLS, client auth and sticky sessions are on. Read from flags or a small YAML file
 * ({@link ProfileFile}).
 *
 * @param connectShare          share of arrivals that are {@code CONNECT} tunnels
 * @param httpShare             share of plain-HTTP requests (absolute form, keep-alive)
 * @param socksShare            share of SOCKS5 tunnels
 * @param requestsPerConnection plain-HTTP requests one client connection carries before it closes
 * @param requestBytes          request payload (a header pad for HTTP, bytes in the tunnel)
 * @param responseBytes         response body / bytes back through the tunnel
 * @param tunnelDuration        how long a tunnel stays open after its exchange
 * @param stickyShare           share of arrivals that ask for a sticky session
 * @param rtt                   the simulated upstream round trip
 * @param failures              the simulated upstream failures
 * @param tls                   TLS on the gateway listener
 * @param auth                  client credentials on every request
 */
public record TrafficProfile(
        double connectShare,
        double httpShare,
        double socksShare,
        int requestsPerConnection,
        int requestBytes,
        int responseBytes,
        Duration tunnelDuration,
        double stickyShare,
        RttDistribution rtt,
        FailureShares failures,
        boolean tls,
        boolean auth) {

    public TrafficProfile {
        for (double s : new double[] {connectShare, httpShare, socksShare, stickyShare}) {
            if (!(s >= 0 && s <= 1)) {
                throw new IllegalArgumentException("shares must be in [0, 1]");
            }
        }
        if (Math.abs(connectShare + httpShare + socksShare - 1) > 0.001) {
            throw new IllegalArgumentException(
                    "connect + http + socks shares must add up to 1, got " + (connectShare + httpShare + socksShare));
        }
        if (requestsPerConnection < 1 || requestsPerConnection > 10_000) {
            throw new IllegalArgumentException("requests per connection must be 1..10000");
        }
        if (requestBytes < 0 || requestBytes > 8192 || responseBytes < 0 || responseBytes > (16 << 20)) {
            throw new IllegalArgumentException("request bytes must be 0..8192, response bytes 0..16 MiB");
        }
        if (tunnelDuration.isNegative() || tunnelDuration.compareTo(Duration.ofMinutes(5)) > 0) {
            throw new IllegalArgumentException("tunnel duration must be 0..5m");
        }
    }

    /** The default: 70 % CONNECT, 25 % HTTP (10 per connection), 5 % SOCKS5, 200 ms, 1 % refusals. */
    public static TrafficProfile defaults() {
        return new TrafficProfile(
                0.70,
                0.25,
                0.05,
                10,
                512,
                4096,
                Duration.ofSeconds(1),
                0.0,
                new RttDistribution.LogNormal(Duration.ofMillis(200), Duration.ofMillis(1500)),
                new FailureShares(0.01, 0, 0),
                true,
                true);
    }

    public String describe() {
        return String.format(
                Locale.ROOT,
                "%.0f%% CONNECT, %.0f%% HTTP (%d/conn), %.0f%% SOCKS5; %d B up, %d B down; tunnels held %d ms;"
                        + " sticky %.0f%%; rtt %s; failures refuse %.2f%% reset %.2f%% slow %.2f%%; tls %s; auth %s",
                connectShare * 100,
                httpShare * 100,
                requestsPerConnection,
                socksShare * 100,
                requestBytes,
                responseBytes,
                tunnelDuration.toMillis(),
                stickyShare * 100,
                rtt.describe(),
                failures.refuse() * 100,
                failures.reset() * 100,
                failures.slow() * 100,
                tls ? "on" : "off",
                auth ? "on" : "off");
    }
}
