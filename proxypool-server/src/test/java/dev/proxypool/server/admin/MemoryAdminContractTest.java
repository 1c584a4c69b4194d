package dev.proxypool.server.admin;

import dev.proxypool.server.persistence.ConfigState;
import dev.proxypool.server.persistence.ConfigStore;
import dev.proxypool.server.persistence.MemoryConfigStore;
import java.time.InstantSource;
import org.junit.jupiter.api.Tag;

/** The admin contract on the embedded in-memory store. */
@Tag("slow")
class MemoryAdminContractTest extends AdminContract {

    @Override
    ConfigStore newStore(InstantSource clock) {
        return new MemoryConfigStore(ConfigState.EMPTY, clock);
    }
}
