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
 * @param checksum SHA-256 hex of the migration's statements: line endings normalized to {@code \n},
 *                 whole-line {@code --} comments, blank lines and trailing blanks left out. A changed
 *                 statement is detected; a CRLF checkout or an edited comment is not a change
 * @param fullTextChecksum SHA-256 hex of the whole normalized text, comments included: the checksum
 *                 recorded by builds before comments stopped counting; a database migrated by one of
 *                 them is recognised by it (see {@link Migrator})
 */
public record Migration(
        int version, String description, String fileName, String sql, String checksum, String fullTextChecksum) {

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
            throw new IllegalArgumentException(
                    "migration file '" + fileName + "' is not named V<version>__<description>.sql");
        }
        String normalized = sql.replace("\r\n", "\n");
        return new Migration(
                Integer.parseInt(m.group(1)),
                m.group(2).replace('_', ' '),
                fileName,
                normalized,
                checksum(statements(normalized)),
                checksum(normalized));
    }

    /** The text that counts: every line but whole-line {@code --} comments and blank lines, trailing blanks cut. */
    static String statements(String sql) {
        StringBuilder out = new StringBuilder(sql.length());
        for (String line : sql.split("\n", -1)) {
            String kept = line.stripTrailing();
            String lead = kept.stripLeading();
            if (lead.isEmpty() || lead.startsWith("--")) {
                continue;
            }
            out.append(kept).append('\n');
        }
        return out.toString();
    }

    static String checksum(String sql) {
        try {
            return HexFormat.of()
                    .formatHex(MessageDigest.getInstance("SHA-256").digest(sql.getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is part of every JDK", e);
        }
    }
}
