package dev.proxypool.core.wire;

import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.function.Function;

/**
 * The SOCKS5 codec (RFC 1928, with RFC 1929 username/password): the constants, the encoding of
 * every message of both sides, their decoding, and the reply codes with their meanings. No I/O of
 * its own: decoders read a {@link ByteBuffer} holding what has arrived and take a message only
 * once it is whole (else they return {@code null} and leave the buffer as it was), so an event loop
 * and a blocking reader ({@link #read}) share them.
 */
public final class Socks5Codec {

    /** The protocol version byte of every SOCKS5 message but the RFC 1929 ones. */
    public static final int VERSION = 5;
    /** Method "no authentication required". */
    public static final int METHOD_NONE = 0x00;
    /** Method "username/password" (RFC 1929). */
    public static final int METHOD_USER_PASSWORD = 0x02;
    /** The method choice "no acceptable methods". */
    public static final int METHOD_NO_ACCEPTABLE = 0xFF;
    /** The version byte of the RFC 1929 sub-negotiation. */
    public static final int AUTH_VERSION = 0x01;
    /** RFC 1929 status: success (any other status is a failure). */
    public static final int AUTH_SUCCEEDED = 0x00;
    /** RFC 1929 status the servers here send for a failure. */
    public static final int AUTH_FAILED = 0x01;
    /** Command CONNECT. */
    public static final int CMD_CONNECT = 0x01;
    /** Command BIND. */
    public static final int CMD_BIND = 0x02;
    /** Command UDP ASSOCIATE. */
    public static final int CMD_UDP_ASSOCIATE = 0x03;
    /** Address type: 4 bytes of IPv4. */
    public static final int ATYP_IPV4 = 0x01;
    /** Address type: a length byte, then a domain name. */
    public static final int ATYP_DOMAIN = 0x03;
    /** Address type: 16 bytes of IPv6. */
    public static final int ATYP_IPV6 = 0x04;
    /** The longest domain name, username and password: one length byte. */
    public static final int MAX_FIELD = 255;

    /** The largest message either side sends (an RFC 1929 request with both fields at their longest). */
    private static final int MAX_MESSAGE = 3 + 2 * MAX_FIELD;

    /** The reply codes of RFC 1928 §6, with their meanings. */
    public enum Reply {
        /** 0x00. */
        SUCCEEDED(0x00, "succeeded"),
        /** 0x01. */
        GENERAL_FAILURE(0x01, "general SOCKS server failure"),
        /** 0x02. */
        NOT_ALLOWED(0x02, "connection not allowed by ruleset"),
        /** 0x03. */
        NETWORK_UNREACHABLE(0x03, "network unreachable"),
        /** 0x04. */
        HOST_UNREACHABLE(0x04, "host unreachable"),
        /** 0x05. */
        CONNECTION_REFUSED(0x05, "connection refused"),
        /** 0x06. */
        TTL_EXPIRED(0x06, "TTL expired"),
        /** 0x07. */
        COMMAND_NOT_SUPPORTED(0x07, "command not supported"),
        /** 0x08. */
        ADDRESS_TYPE_NOT_SUPPORTED(0x08, "address type not supported");

        private static final Reply[] BY_CODE = values();

        private final int code;
        private final String meaning;

        Reply(int code, String meaning) {
            this.code = code;
            this.meaning = meaning;
        }

        /** The REP byte. */
        public int code() {
            return code;
        }

        /** What RFC 1928 says the code means. */
        public String meaning() {
            return meaning;
        }

        /** The reply with this REP byte, or {@code null} for a code RFC 1928 does not assign. */
        public static Reply of(int code) {
            return code >= 0 && code < BY_CODE.length ? BY_CODE[code] : null;
        }

        /** The meaning of a REP byte, {@code "unknown SOCKS5 reply code N"} for an unassigned one. */
        public static String describe(int code) {
            Reply r = of(code);
            return r == null ? "unknown SOCKS5 reply code " + code : r.meaning;
        }
    }

    /**
     * A client's greeting.
     *
     * @param version the version byte (5 for SOCKS5)
     * @param methods the methods offered
     */
    public record Greeting(int version, byte[] methods) {
        /** Whether {@code method} is offered. */
        public boolean offers(int method) {
            for (byte m : methods) {
                if ((m & 0xFF) == method) {
                    return true;
                }
            }
            return false;
        }
    }

    /**
     * An RFC 1929 username/password request. The caller zeroes {@code password} once used.
     *
     * @param version  the version byte (1 for RFC 1929)
     * @param username the username's bytes
     * @param password the password's bytes
     */
    public record AuthRequest(int version, byte[] username, byte[] password) {}

    /**
     * A request (VER CMD RSV ATYP DST.ADDR DST.PORT) or a reply (VER REP RSV ATYP BND.ADDR
     * BND.PORT): the two have one layout.
     *
     * @param version     the version byte
     * @param code        CMD of a request, REP of a reply
     * @param addressType ATYP
     * @param host        the address: an IP literal, or the domain name (ISO-8859-1); {@code null}
     *                    when the version is not 5 or the address type unknown (then only the
     *                    first four bytes were taken: the rest cannot be sized)
     * @param port        the port, -1 with a {@code null} host
     */
    public record Message(int version, int code, int addressType, String host, int port) {
        /** Whether the address could be read (version 5 and a known address type). */
        public boolean whole() {
            return host != null;
        }
    }

    private Socks5Codec() {}

    // ---- encoding

    /** A client's greeting offering {@code methods}. */
    public static byte[] greeting(int... methods) {
        byte[] m = new byte[2 + methods.length];
        m[0] = VERSION;
        m[1] = (byte) methods.length;
        for (int i = 0; i < methods.length; i++) {
            m[2 + i] = (byte) methods[i];
        }
        return m;
    }

    /** The server's method choice ({@link #METHOD_NO_ACCEPTABLE} for none). */
    public static byte[] methodChoice(int method) {
        return new byte[] {VERSION, (byte) method};
    }

    /**
     * An RFC 1929 request. Zero the result once written: it holds the password.
     *
     * @throws IllegalArgumentException a field longer than {@value #MAX_FIELD} bytes
     */
    public static byte[] authRequest(byte[] username, byte[] password) {
        if (username.length > MAX_FIELD || password.length > MAX_FIELD) {
            throw new IllegalArgumentException("SOCKS5 username and password are at most 255 bytes");
        }
        byte[] msg = new byte[3 + username.length + password.length];
        msg[0] = AUTH_VERSION;
        msg[1] = (byte) username.length;
        System.arraycopy(username, 0, msg, 2, username.length);
        msg[2 + username.length] = (byte) password.length;
        System.arraycopy(password, 0, msg, 3 + username.length, password.length);
        return msg;
    }

    /** The RFC 1929 status reply. */
    public static byte[] authStatus(boolean ok) {
        return new byte[] {AUTH_VERSION, (byte) (ok ? AUTH_SUCCEEDED : AUTH_FAILED)};
    }

    /**
     * A request.
     *
     * @param address 4 bytes (IPv4), 16 (IPv6) or a domain name's bytes, as {@code addressType} says
     */
    public static byte[] request(int command, int addressType, byte[] address, int port) {
        return message(command, addressType, address, port);
    }

    /** A reply with the bound address 0.0.0.0:0 (the upstream's socket is not the client's business). */
    public static byte[] reply(int rep) {
        return new byte[] {VERSION, (byte) rep, 0, ATYP_IPV4, 0, 0, 0, 0, 0, 0};
    }

    /** A reply with a bound address of 4 (IPv4) or 16 (IPv6) bytes. */
    public static byte[] reply(int rep, byte[] boundAddress, int port) {
        return message(rep, boundAddress.length == 16 ? ATYP_IPV6 : ATYP_IPV4, boundAddress, port);
    }

    private static byte[] message(int code, int addressType, byte[] address, int port) {
        boolean domain = addressType == ATYP_DOMAIN;
        if (domain && address.length > MAX_FIELD || !domain && address.length != (addressType == ATYP_IPV6 ? 16 : 4)) {
            throw new IllegalArgumentException("address does not fit its SOCKS5 address type");
        }
        int head = domain ? 5 : 4;
        byte[] m = new byte[head + address.length + 2];
        m[0] = VERSION;
        m[1] = (byte) code;
        m[3] = (byte) addressType;
        if (domain) {
            m[4] = (byte) address.length;
        }
        System.arraycopy(address, 0, m, head, address.length);
        m[head + address.length] = (byte) (port >>> 8);
        m[head + address.length + 1] = (byte) port;
        return m;
    }

    // ---- decoding: null (and the buffer untouched) until the message is whole

    /** Decodes a greeting: VER NMETHODS METHODS. */
    public static Greeting decodeGreeting(ByteBuffer in) {
        int at = in.position();
        if (in.remaining() < 2) {
            return null;
        }
        int n = in.get(at + 1) & 0xFF;
        if (in.remaining() < 2 + n) {
            return null;
        }
        byte[] methods = new byte[n];
        in.get(at + 2, methods);
        in.position(at + 2 + n);
        return new Greeting(in.get(at) & 0xFF, methods);
    }

    /** Decodes a method choice (VER METHOD) to the method, or -1 while not whole. */
    public static int decodeMethodChoice(ByteBuffer in) throws HeadException {
        return decodeTwo(in, VERSION, "the reply is not SOCKS5");
    }

    /** Decodes an RFC 1929 request: VER ULEN UNAME PLEN PASSWD. */
    public static AuthRequest decodeAuthRequest(ByteBuffer in) {
        int at = in.position();
        int have = in.remaining();
        if (have < 2) {
            return null;
        }
        int ulen = in.get(at + 1) & 0xFF;
        if (have < 3 + ulen) {
            return null;
        }
        int plen = in.get(at + 2 + ulen) & 0xFF;
        if (have < 3 + ulen + plen) {
            return null;
        }
        byte[] user = new byte[ulen];
        in.get(at + 2, user);
        byte[] password = new byte[plen];
        in.get(at + 3 + ulen, password);
        in.position(at + 3 + ulen + plen);
        return new AuthRequest(in.get(at) & 0xFF, user, password);
    }

    /**
     * Decodes an RFC 1929 status reply (VER STATUS) to the status, or -1 while not whole. A version
     * byte of 5 is accepted as well as 1: servers send either.
     */
    public static int decodeAuthStatus(ByteBuffer in) throws HeadException {
        if (in.remaining() < 2) {
            return -1;
        }
        int v = in.get(in.position()) & 0xFF;
        if (v != AUTH_VERSION && v != VERSION) {
            throw new HeadException(HeadException.Kind.SOCKS5_PROTOCOL, "the authentication reply is not RFC 1929");
        }
        int status = in.get(in.position() + 1) & 0xFF;
        in.position(in.position() + 2);
        return status;
    }

    /** Decodes a request (or a reply: one layout); see {@link Message} for a version or type it cannot size. */
    public static Message decodeMessage(ByteBuffer in) {
        int at = in.position();
        int have = in.remaining();
        if (have < 4) {
            return null;
        }
        int version = in.get(at) & 0xFF;
        int code = in.get(at + 1) & 0xFF;
        int type = in.get(at + 3) & 0xFF;
        int size = messageSize(in);
        if (version != VERSION || size < 0) {
            in.position(at + 4);
            return new Message(version, code, type, null, -1);
        }
        if (size > have) {
            return null;
        }
        String host;
        int addressAt = at + 4;
        int addressBytes;
        if (type == ATYP_DOMAIN) {
            addressBytes = in.get(at + 4) & 0xFF;
            addressAt++;
            byte[] name = new byte[addressBytes];
            in.get(addressAt, name);
            host = new String(name, StandardCharsets.ISO_8859_1);
        } else {
            addressBytes = type == ATYP_IPV4 ? 4 : 16;
            byte[] raw = new byte[addressBytes];
            in.get(addressAt, raw);
            try {
                host = InetAddress.getByAddress(raw).getHostAddress(); // a literal: no lookup
            } catch (UnknownHostException e) {
                throw new IllegalStateException(e); // 4 or 16 bytes: cannot happen
            }
        }
        int portAt = addressAt + addressBytes;
        int port = ((in.get(portAt) & 0xFF) << 8) | (in.get(portAt + 1) & 0xFF);
        in.position(at + size);
        return new Message(version, code, type, host, port);
    }

    /**
     * How many more bytes a request or reply needs before {@link #decodeMessage} takes it whole: 0
     * once it can; at least 1 before. Lets a reader that must not take a byte past the message read
     * exactly.
     */
    public static int missing(ByteBuffer in) {
        int have = in.remaining();
        if (have < 4) {
            return 4 - have;
        }
        if ((in.get(in.position()) & 0xFF) != VERSION) {
            return 0;
        }
        if ((in.get(in.position() + 3) & 0xFF) == ATYP_DOMAIN && have < 5) {
            return 1;
        }
        int size = messageSize(in);
        return size < 0 ? 0 : Math.max(0, size - have);
    }

    /** The size of the request or reply at the buffer's position (at least 4 bytes, 5 for a domain); -1 for an unknown type. */
    private static int messageSize(ByteBuffer in) {
        return switch (in.get(in.position() + 3) & 0xFF) {
            case ATYP_IPV4 -> 4 + 4 + 2;
            case ATYP_IPV6 -> 4 + 16 + 2;
            case ATYP_DOMAIN -> in.remaining() < 5 ? 5 + 2 : 5 + (in.get(in.position() + 4) & 0xFF) + 2;
            default -> -1;
        };
    }

    private static int decodeTwo(ByteBuffer in, int version, String wrongVersion) throws HeadException {
        if (in.remaining() < 2) {
            return -1;
        }
        if ((in.get(in.position()) & 0xFF) != version) {
            throw new HeadException(HeadException.Kind.SOCKS5_PROTOCOL, wrongVersion);
        }
        int value = in.get(in.position() + 1) & 0xFF;
        in.position(in.position() + 2);
        return value;
    }

    // ---- blocking

    /**
     * Reads one message from a blocking stream with {@code decoder} ({@code Socks5Codec::decodeGreeting}
     * and the like), one byte at a time: not a byte past the message is taken.
     *
     * @throws EOFException the stream ended inside the message
     */
    public static <T> T read(InputStream in, Function<ByteBuffer, T> decoder) throws IOException {
        byte[] buf = new byte[MAX_MESSAGE];
        int n = 0;
        while (true) {
            T message = decoder.apply(ByteBuffer.wrap(buf, 0, n));
            if (message != null) {
                return message;
            }
            int b = in.read();
            if (b < 0) {
                throw new EOFException("end of stream inside a SOCKS5 message");
            }
            buf[n++] = (byte) b;
        }
    }

    /** Zeroes a secret once it is no longer needed. */
    public static void wipe(byte[] secret) {
        Arrays.fill(secret, (byte) 0);
    }
}
