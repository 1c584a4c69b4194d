package dev.proxypool.server.admin;

import dev.proxypool.server.persistence.ConfigStore;
import dev.proxypool.server.persistence.PgSchema;
import dev.proxypool.server.persistence.PostgresConfigStore;
import java.time.InstantSource;
import org.junit.jupiter.api.Tag;

/** The admin contract on PostgreSQL: a fresh, migrated schema per test, dropped afterwards. */
@Tag("slow")
class PostgresAdminContractTest extends AdminContract {

    private PgSchema schema;

    @Override
    ConfigStore newStore(InstantSource clock) {
        schema = PgSchema.create();
        return PostgresConfigStore.open(schema.settings(), clock);
    }

    @Override
    void cleanUp() {
        if (schema != null) {
            schema.close();
        }
    }
}
