package dev.proxypool.server.access;

import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Base64;

/** Decoded {@code Basic} credentials; the secret as chars so it can be wiped. */
record BasicCredentials(String username, char[] secret) {

    /** Null unless {@code header} is {@code Basic <base64 of user:secret>} with valid UTF-8 and a non-empty user. */
    static BasicCredentials parse(String header, int maxLength) {
        if (header.length() > maxLength || header.length() < 7 || !header.regionMatches(true, 0, "Basic ", 0, 6)) {
            return null;
        }
        byte[] raw;
        try {
            raw = Base64.getDecoder().decode(header.substring(6).strip());
        } catch (IllegalArgumentException e) {
            return null;
        }
        try {
            int colon = -1;
            for (int i = 0; i < raw.length; i++) {
                if (raw[i] == ':') {
                    colon = i;
                    break;
                }
            }
            if (colon <= 0) {
                return null;
            }
            var decoder = StandardCharsets.UTF_8
                    .newDecoder()
                    .onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT);
            String user = decoder.decode(ByteBuffer.wrap(raw, 0, colon)).toString();
            CharBuffer secret = decoder.reset().decode(ByteBuffer.wrap(raw, colon + 1, raw.length - colon - 1));
            char[] chars = new char[secret.remaining()];
            secret.get(chars);
            if (secret.hasArray()) {
                Arrays.fill(secret.array(), '\0');
            }
            return new BasicCredentials(user, chars);
        } catch (CharacterCodingException e) {
            return null;
        } finally {
            Arrays.fill(raw, (byte) 0);
        }
    }

    @Override
    public String toString() {
        return "BasicCredentials[username=" + username + ", secret=***]";
    }
}
