package dev.proxypool.sdk.coordination;

import dev.proxypool.core.model.Anonymity;
import dev.proxypool.core.model.CredentialRef;
import dev.proxypool.core.model.ExitNetwork;
import dev.proxypool.core.model.Labels;
import dev.proxypool.core.model.Protocol;
import dev.proxypool.core.model.Proxy;
import dev.proxypool.core.model.ProxyKey;
import java.time.DateTimeException;
import java.time.Instant;
import java.util.Map;
import java.util.TreeMap;

/**
 * One proxy in a frame body. Layout:
 * <pre>
 * id            string
 * protocol      byte   (0 http, 1 https, 2 socks4, 3 socks5)
 * shape         byte   bit0 host is IPv4 (4 bytes follow instead of a string), bit1 expires,
 *                      bit2 exit network known, bit3 exit IP is IPv4
 * host          4 bytes | string
 * port          2 bytes
 * credentialRef dict    (the ref's name only: never a secret)
 * provider      dict
 * upstream      dict
 * [expiresAt]   zigzag varint epoch seconds, varint nanos
 * maxConcurrency varint, weight varint
 * anonymity     byte   (0 elite, 1 anonymous, 2 unknown)
 * [exit]        exit IP (4 bytes | string), varint asn, dict organization, dict prefix
 * labels        varint n, then n × (dict key, dict value)
 * </pre>
 * Codes are written out rather than enum ordinals so reordering an enum never changes the wire.
 */
final class ProxyRecord {

    private static final int HOST_V4 = 1;
    private static final int EXPIRES = 2;
    private static final int EXIT = 4;
    private static final int EXIT_V4 = 8;
    private static final int KNOWN_SHAPE = HOST_V4 | EXPIRES | EXIT | EXIT_V4;
    private static final int MAX_LABELS = 4096;

    private ProxyRecord() {}

    static void write(FrameWriter w, Proxy p) {
        w.string(p.id());
        w.byte1(protocolCode(p.protocol()));
        byte[] host = Ipv4.parse(p.host());
        ExitNetwork x = p.exitNetwork();
        boolean exit = !ExitNetwork.UNKNOWN.equals(x);
        byte[] exitIp = exit ? Ipv4.parse(x.exitIp()) : null;
        int shape = (host != null ? HOST_V4 : 0)
                | (p.expires() ? EXPIRES : 0)
                | (exit ? EXIT : 0)
                | (exitIp != null ? EXIT_V4 : 0);
        w.byte1(shape);
        if (host != null) {
            w.bytes(host, 0, 4);
        } else {
            w.string(p.host());
        }
        w.byte1(p.port() >>> 8);
        w.byte1(p.port());
        w.dict(p.credentialRef().name());
        w.dict(p.provider());
        w.dict(p.upstream());
        if (p.expires()) {
            w.signed(p.expiresAt().getEpochSecond());
            w.varint(p.expiresAt().getNano());
        }
        w.varint(p.maxConcurrency());
        w.varint(p.weight());
        w.byte1(anonymityCode(p.anonymity()));
        if (exit) {
            if (exitIp != null) {
                w.bytes(exitIp, 0, 4);
            } else {
                w.string(x.exitIp());
            }
            w.varint(x.asn());
            w.dict(x.organization());
            w.dict(x.prefix());
        }
        w.varint(p.labels().size());
        for (Map.Entry<String, String> l : p.labels().values().entrySet()) {
            w.dict(l.getKey());
            w.dict(l.getValue());
        }
    }

    static Proxy read(FrameReader r) {
        String id = r.string();
        Protocol protocol = protocol(r.byte1());
        int shape = r.byte1();
        if ((shape & ~KNOWN_SHAPE) != 0) {
            throw new SnapshotFormatException("proxy " + id + ": unknown shape bits " + shape);
        }
        String host = (shape & HOST_V4) != 0 ? Ipv4.read(r) : r.string();
        int port = (r.byte1() << 8) | r.byte1();
        try {
            ProxyKey key = new ProxyKey(protocol, host, port, CredentialRef.of(r.dict()));
            Proxy.Builder b = Proxy.builder(key).id(id).provider(r.dict()).upstream(r.dict());
            if ((shape & EXPIRES) != 0) {
                long seconds = r.signed();
                long nanos = r.varint();
                b.expiresAt(Instant.ofEpochSecond(seconds, nanos));
            }
            b.maxConcurrency(r.count("maxConcurrency", Integer.MAX_VALUE));
            b.weight(r.count("weight", Integer.MAX_VALUE));
            b.anonymity(anonymity(r.byte1()));
            if ((shape & EXIT) != 0) {
                String exitIp = (shape & EXIT_V4) != 0 ? Ipv4.read(r) : r.string();
                b.exitNetwork(new ExitNetwork(exitIp, r.varint(), r.dict(), r.dict()));
            }
            int labels = r.count("label count", MAX_LABELS);
            if (labels > 0) {
                TreeMap<String, String> m = new TreeMap<>();
                for (int i = 0; i < labels; i++) {
                    m.put(r.dict(), r.dict());
                }
                b.labels(Labels.of(m));
            }
            return b.build();
        } catch (SnapshotFormatException e) {
            throw e;
        } catch (IllegalArgumentException | DateTimeException e) {
            throw new SnapshotFormatException("proxy " + id + " is invalid: " + e.getMessage(), e);
        }
    }

    private static int protocolCode(Protocol p) {
        return switch (p) {
            case HTTP -> 0;
            case HTTPS -> 1;
            case SOCKS4 -> 2;
            case SOCKS5 -> 3;
        };
    }

    private static Protocol protocol(int code) {
        return switch (code) {
            case 0 -> Protocol.HTTP;
            case 1 -> Protocol.HTTPS;
            case 2 -> Protocol.SOCKS4;
            case 3 -> Protocol.SOCKS5;
            default -> throw new SnapshotFormatException("unknown protocol code " + code);
        };
    }

    private static int anonymityCode(Anonymity a) {
        return switch (a) {
            case ELITE -> 0;
            case ANONYMOUS -> 1;
            case UNKNOWN -> 2;
        };
    }

    private static Anonymity anonymity(int code) {
        return switch (code) {
            case 0 -> Anonymity.ELITE;
            case 1 -> Anonymity.ANONYMOUS;
            case 2 -> Anonymity.UNKNOWN;
            default -> throw new SnapshotFormatException("unknown anonymity code " + code);
        };
    }

    /** Dotted-quad IPv4 in its canonical text only (no leading zeros), so text → bytes → text is exact. */
    static final class Ipv4 {

        private Ipv4() {}

        /** The 4 bytes of a canonical dotted quad, or {@code null} for anything else. */
        static byte[] parse(String s) {
            int n = s.length();
            if (n < 7 || n > 15) {
                return null;
            }
            byte[] out = new byte[4];
            int part = 0;
            int value = 0;
            int digits = 0;
            for (int i = 0; i <= n; i++) {
                char c = i < n ? s.charAt(i) : '.';
                if (c == '.') {
                    if (digits == 0 || part == 4 || (digits > 1 && s.charAt(i - digits) == '0')) {
                        return null;
                    }
                    out[part++] = (byte) value;
                    value = 0;
                    digits = 0;
                } else if (c >= '0' && c <= '9' && digits < 3) {
                    value = value * 10 + (c - '0');
                    digits++;
                    if (value > 255) {
                        return null;
                    }
                } else {
                    return null;
                }
            }
            return part == 4 ? out : null;
        }

        static String read(FrameReader r) {
            return r.byte1() + "." + r.byte1() + "." + r.byte1() + "." + r.byte1();
        }
    }
}
