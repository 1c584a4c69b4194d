package dev.proxypool.server.contract;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.proxypool.sdk.rest.ErrorBody;
import dev.proxypool.sdk.rest.ExtractedProxyBody;
import dev.proxypool.sdk.rest.ExtractionRequestBody;
import dev.proxypool.sdk.rest.ExtractionResponseBody;
import dev.proxypool.sdk.rest.LeaseBody;
import dev.proxypool.sdk.rest.LeaseRequestBody;
import dev.proxypool.sdk.rest.ListedProxyBody;
import dev.proxypool.sdk.rest.ProxyListBody;
import dev.proxypool.sdk.rest.ReleaseReceiptBody;
import dev.proxypool.sdk.rest.ReleaseRequestBody;
import dev.proxypool.sdk.rest.RestJson;
import dev.proxypool.sdk.rest.SelectionBody;
import java.io.IOException;
import java.net.URI;
import java.net.URISyntaxException;
import java.net.URL;
import java.nio.file.FileSystem;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The REST bodies are defined once, as the records of {@code dev.proxypool.sdk.rest} that the server
 * and the SDK's client both bind; here each record's components are the properties of its OpenAPI
 * schema (the record's name without {@code Body}), and every schema property a record lacks or every
 * component the schema lacks fails. The exchanges themselves are checked against the same schemas by
 * {@link OpenApiContract} in the API tests.
 */
class RestBodiesSchemaTest {

    private static final List<Class<? extends Record>> BODIES = List.of(
            ExtractionRequestBody.class,
            SelectionBody.class,
            ExtractionResponseBody.class,
            ExtractedProxyBody.class,
            LeaseRequestBody.class,
            LeaseBody.class,
            ReleaseRequestBody.class,
            ReleaseReceiptBody.class,
            ProxyListBody.class,
            ListedProxyBody.class,
            ErrorBody.class);

    @Test
    void everyBodyRecordHasTheProperties() {
        JsonNode schemas = OpenApiContract.get().document().path("components").path("schemas");
        for (Class<? extends Record> body : BODIES) {
            String name = body.getSimpleName().substring(0, body.getSimpleName().length() - "Body".length());
            JsonNode schema = schemas.path(name);
            assertFalse(schema.isMissingNode(), "no schema " + name + " for " + body.getSimpleName());
            Set<String> properties = new TreeSet<>();
            schema.path("properties").fieldNames().forEachRemaining(properties::add);
            assertEquals(properties, new TreeSet<>(RestJson.fields(body)), name + " vs " + body.getSimpleName());
            schema.path("required")
                    .forEach(r -> assertTrue(
                            properties.contains(r.asText()), name + " requires " + r.asText() + ", not a property"));
        }
    }

    /** Every record of the package is listed above (a new body cannot escape the check). */
    @Test
    void everyRecordOfThePackageIsChecked() throws IOException, URISyntaxException {
        URL one = SelectionBody.class.getResource("SelectionBody.class");
        assertTrue(one != null, "SelectionBody.class on the class path");
        Set<String> records = new TreeSet<>();
        URI uri = one.toURI();
        // the sdk's classes: a directory (a module built alone) or its jar (the reactor's verify)
        try (FileSystem jar = uri.getScheme().equals("jar") ? FileSystems.newFileSystem(uri, Map.of()) : null;
                Stream<Path> files = Files.list(Path.of(uri).getParent())) {
            for (Path f : files.toList()) {
                String file = f.getFileName().toString();
                if (file.endsWith("Body.class")) {
                    records.add(file.substring(0, file.length() - ".class".length()));
                }
            }
        }
        assertTrue(records.size() >= 10, "records found: " + records);
        Set<String> listed = new TreeSet<>();
        BODIES.forEach(b -> listed.add(b.getSimpleName()));
        assertEquals(records, listed);
    }
}
