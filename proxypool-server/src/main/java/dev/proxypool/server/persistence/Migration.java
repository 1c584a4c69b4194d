package dev.proxypool.server.persistence;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * One versioned schema change, {@code V<version>__<description>.sql}.
 *
 * @param checksum SHA-256 hex of the SQL with line endings normalized to {@code \n}: a file edited
 *                 after it was applied is detected, a checkout with CRLF line endings is not
 */
public record Migration(int version, String description, String fileName, String sql, String checksum) {

    private static final Pattern NAME = Pattern.compile("V([1-9][0-9]{0,8})__([A-Za-z0-9_]+)\\.sql");

    public Migration {
        if (version < 1) {
            throw new IllegalArgumentException("migration version must be at least 1, got " + version);
        }
    }

    /** A migration from its file name and content. */
    public static Migration of(String fileName, String sql) {
        Matcher m = NAME.matcher(fileName);
        if (!m.matches()) {
            throw new IllegalArgumentException("migration file '" + fileName
                    + "' is not named V<version>__<description>.sql");
        }
        String normalized = sql.replace("\r\n", "\n");
        return new Migration(Integer.parseInt(m.group(1)), m.group(2).replace('_', ' '), fileName, normalized,
                checksum(normalized));
    }

    static String checksum(String sql) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(sql.getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is part of every JDK", e);
        }
    }
}
