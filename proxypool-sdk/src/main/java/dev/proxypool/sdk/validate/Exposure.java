package dev.proxypool.sdk.validate;

import dev.proxypool.core.model.Anonymity;
import java.net.InetAddress;
import java.util.List;
import java.util.Set;

/**
 * What an echo seen through a proxy reveals (docs/design.md#collection-pipeline, P6): the validator's direct address as the
 * peer → {@link RejectReason#DIRECT_ADDRESS_SEEN} (a transparent proxy, or none at all); a direct
 * address inside a forwarding header → {@link RejectReason#ADDRESS_LEAKED}; a proxy marker without a
 * leak → {@link Anonymity#ANONYMOUS}; neither → {@link Anonymity#ELITE}.
 */
final class Exposure {

    /**
     * Headers searched for a direct address: the five of docs/design.md#collection-pipeline (P6) plus the other common spellings
     * of "the client was". Host-like headers ({@code X-Forwarded-Host}) are not searched: they name the
     * echo endpoint, which may share the validator's address.
     */
    static final List<String> LEAK_HEADERS = List.of(
            "Forwarded",
            "X-Forwarded-For",
            "X-Real-IP",
            "Client-IP",
            "True-Client-IP",
            "X-Client-IP",
            "X-Originating-IP",
            "X-Cluster-Client-IP",
            "X-Remote-IP",
            "X-Remote-Addr",
            "Forwarded-For",
            "X-Forwarded",
            "CF-Connecting-IP",
            "Fastly-Client-IP");

    /** Headers that show a proxy was used, even when they leak nothing. */
    static final List<String> MARKER_HEADERS = List.of(
            "Via",
            "Forwarded",
            "X-Forwarded-For",
            "X-Forwarded-Host",
            "X-Forwarded-Proto",
            "X-Forwarded-Server",
            "X-Real-IP",
            "Client-IP",
            "True-Client-IP",
            "X-Client-IP",
            "X-Originating-IP",
            "X-Cluster-Client-IP",
            "Forwarded-For",
            "X-Forwarded",
            "X-Proxy-ID",
            "X-BlueCoat-Via",
            "Proxy-Connection");

    /** The judgement: {@code reason} null for an accepted proxy. */
    record Finding(Anonymity anonymity, RejectReason reason, String detail) {}

    private Exposure() {}

    static Finding judge(InetAddress exit, EchoJson.Echo echo, Set<InetAddress> direct) {
        if (direct.contains(exit)) {
            return new Finding(
                    Anonymity.UNKNOWN,
                    RejectReason.DIRECT_ADDRESS_SEEN,
                    "the echo endpoint saw the validator's own address: a transparent proxy, or one on"
                            + " this host or network (a lab proxy; for proxies you run yourself set"
                            + " 'validate: false' on their upstream)");
        }
        for (String name : LEAK_HEADERS) {
            String v = echo.header(name);
            if (v != null && Addresses.in(v).stream().anyMatch(direct::contains)) {
                return new Finding(
                        Anonymity.UNKNOWN, RejectReason.ADDRESS_LEAKED, "the validator's address leaked in " + name);
            }
        }
        for (String name : MARKER_HEADERS) {
            if (echo.header(name) != null) {
                return new Finding(Anonymity.ANONYMOUS, null, "proxy marker " + name);
            }
        }
        return new Finding(Anonymity.ELITE, null, "");
    }
}
