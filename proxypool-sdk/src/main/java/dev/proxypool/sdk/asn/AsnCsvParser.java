package dev.proxypool.sdk.asn;

import java.io.BufferedReader;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;

/**
 * Reads the ip-location-db ASN CSV layout:
 * {@code ip_range_start,ip_range_end,autonomous_system_number,autonomous_system_organization},
 * IPv4 and IPv6 rows in one file or two, an optional header row, the organization either quoted
 * (RFC 4180, {@code ""} for a quote) or bare (then everything after the third comma, commas
 * included). Strict: any unreadable row fails the whole load with its line number, because a
 * half-read table would silently turn real networks into "unknown".
 */
final class AsnCsvParser {

    private static final long MAX_ASN = 0xFFFF_FFFFL;

    private AsnCsvParser() {}

    static AsnDatabase parse(byte[] content) throws AsnFormatException {
        AsnTableBuilder table = new AsnTableBuilder();
        var decoder = StandardCharsets.UTF_8
                .newDecoder()
                .onMalformedInput(CodingErrorAction.REPORT)
                .onUnmappableCharacter(CodingErrorAction.REPORT);
        long n = 0;
        try (BufferedReader reader =
                new BufferedReader(new InputStreamReader(new ByteArrayInputStream(content), decoder))) {
            for (String line = reader.readLine(); line != null; line = reader.readLine()) {
                n++;
                if (n == 1 && !line.isEmpty() && line.charAt(0) == '\uFEFF') {
                    line = line.substring(1);
                }
                if (line.isBlank() || (n == 1 && line.strip().startsWith("ip_range_start"))) {
                    continue;
                }
                row(line, n, table);
            }
        } catch (CharacterCodingException e) {
            throw new AsnFormatException(n + 1, "not UTF-8 text");
        } catch (IOException e) {
            throw new UncheckedIOException(e); // reading a byte array does not fail otherwise
        }
        return table.build();
    }

    private static void row(String line, long n, AsnTableBuilder table) throws AsnFormatException {
        int c1 = line.indexOf(',');
        int c2 = c1 < 0 ? -1 : line.indexOf(',', c1 + 1);
        int c3 = c2 < 0 ? -1 : line.indexOf(',', c2 + 1);
        if (c3 < 0) {
            throw new AsnFormatException(n, "expected 4 fields: start,end,asn,organization");
        }
        String start = line.substring(0, c1).strip();
        String end = line.substring(c1 + 1, c2).strip();
        long asn = asn(line.substring(c2 + 1, c3).strip(), n);
        String org = organization(line.substring(c3 + 1).strip(), n);
        byte[] s = address(start, n);
        byte[] e = address(end, n);
        if (s.length != e.length) {
            throw new AsnFormatException(n, "start and end are of different address families");
        }
        if (s.length == 4) {
            int a = IpAddresses.toV4(s);
            int b = IpAddresses.toV4(e);
            if (Integer.compareUnsigned(a, b) > 0) {
                throw new AsnFormatException(n, "range start is after its end");
            }
            table.addV4(a, b, asn, org, n);
        } else {
            long sh = IpAddresses.high(s);
            long sl = IpAddresses.low(s);
            long eh = IpAddresses.high(e);
            long el = IpAddresses.low(e);
            int cmp = sh != eh ? Long.compareUnsigned(sh, eh) : Long.compareUnsigned(sl, el);
            if (cmp > 0) {
                throw new AsnFormatException(n, "range start is after its end");
            }
            table.addV6(sh, sl, eh, el, asn, org, n);
        }
    }

    private static byte[] address(String text, long n) throws AsnFormatException {
        try {
            if (text.indexOf(':') < 0) {
                int v = IpAddresses.parseV4(text);
                return new byte[] {(byte) (v >>> 24), (byte) (v >>> 16), (byte) (v >>> 8), (byte) v};
            }
            return IpAddresses.parseLiteral(text);
        } catch (IllegalArgumentException e) {
            throw new AsnFormatException(n, "'" + abbreviate(text) + "' is not an IP address");
        }
    }

    private static long asn(String text, long n) throws AsnFormatException {
        String digits = text.regionMatches(true, 0, "AS", 0, 2) ? text.substring(2) : text;
        if (digits.isEmpty() || digits.length() > 10 || !digits.chars().allMatch(ch -> ch >= '0' && ch <= '9')) {
            throw new AsnFormatException(n, "'" + abbreviate(text) + "' is not an AS number");
        }
        long v = Long.parseLong(digits);
        if (v > MAX_ASN) {
            throw new AsnFormatException(n, "AS number " + v + " is out of range 0..4294967295");
        }
        return v;
    }

    private static String organization(String text, long n) throws AsnFormatException {
        if (text.isEmpty() || text.charAt(0) != '"') {
            return text;
        }
        if (text.length() < 2 || text.charAt(text.length() - 1) != '"') {
            throw new AsnFormatException(n, "unclosed quote in the organization");
        }
        String inner = text.substring(1, text.length() - 1);
        if (inner.replace("\"\"", "").indexOf('"') >= 0) {
            throw new AsnFormatException(n, "stray quote in the organization");
        }
        return inner.replace("\"\"", "\"");
    }

    private static String abbreviate(String s) {
        return s.length() > 60 ? s.substring(0, 60) + "..." : s;
    }
}
