package dev.proxypool.sdk.asn;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;

import dev.proxypool.core.time.Clocks;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The generator of the bundled test database ({@code src/main/resources/asn/asn-doc.csv}): the
 * documentation ranges (RFC 5737, RFC 3849) mapped to documentation AS numbers (RFC 5398). It
 * proves the shipped file is exactly this table and that its {@code .sha256} matches. To change
 * the table, edit {@link #ROWS}, write the printed content to the file and run
 * {@code sha256sum asn-doc.csv > asn-doc.csv.sha256} in that directory.
 */
class DocumentationDatabaseTest {

    static final String[][] ROWS = {
        {"192.0.2.0", "192.0.2.255", "64496", "DOC-NET-1"},
        {"198.51.100.0", "198.51.100.255", "64497", "DOC-NET-2"},
        {"203.0.113.0", "203.0.113.255", "64498", "DOC-NET-3"},
        {"2001:db8::", "2001:db8:ffff:ffff:ffff:ffff:ffff:ffff", "64499", "DOC-NET-6"},
    };

    static String generate() {
        StringBuilder sb = new StringBuilder(
                "ip_range_start,ip_range_end,autonomous_system_number,autonomous_system_organization\n");
        for (String[] row : ROWS) {
            sb.append(String.join(",", row)).append('\n');
        }
        return sb.toString();
    }

    private static byte[] resource(String name) throws IOException {
        try (InputStream in = DocumentationDatabaseTest.class.getResourceAsStream(name)) {
            return in.readAllBytes();
        }
    }

    @Test
    void theShippedFileIsTheGeneratedTableAndItsChecksumMatches() throws IOException {
        String expected = generate();
        byte[] shipped = resource(AsnDatabaseLoader.DOCUMENTATION_DATABASE);
        assertEquals(
                expected,
                new String(shipped, StandardCharsets.UTF_8),
                "regenerate src/main/resources/asn/asn-doc.csv with this content");
        String sidecar =
                new String(resource(AsnDatabaseLoader.DOCUMENTATION_DATABASE + ".sha256"), StandardCharsets.UTF_8);
        assertEquals(
                AsnDatabaseLoader.sha256(expected.getBytes(StandardCharsets.UTF_8)) + "  asn-doc.csv\n",
                sidecar,
                "run: sha256sum asn-doc.csv > asn-doc.csv.sha256");
    }

    @Test
    void itLoadsThroughTheVerifyingLoader(@TempDir Path dir) throws IOException {
        Path csv = AsnDatabaseLoader.extractDocumentationDatabase(dir);
        AsnLoadResult result = new AsnDatabaseLoader(Duration.ofDays(3650), Clocks.wall()).load(csv);
        AsnLoadResult.Loaded loaded = assertInstanceOf(AsnLoadResult.Loaded.class, result, result::toString);
        assertEquals(4, loaded.source().entries());
        assertEquals(3, loaded.database().ipv4Ranges());
        assertEquals(1, loaded.database().ipv6Ranges());
        assertEquals(64496, loaded.database().lookup("192.0.2.1").asn());
    }
}
