package dev.proxypool.server;

import dev.proxypool.server.persistence.ConfigState;
import dev.proxypool.server.persistence.ConfigStore;
import java.lang.System.Logger;
import java.lang.System.Logger.Level;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;

/**
 * Follows the configuration store's version: when another process (a control plane sharing the
 * PostgreSQL configuration) changed it, the new state is applied here. A failed read — the database
 * is down — keeps the last applied configuration and tries again next interval. One virtual
 * thread; {@link #close()} stops it promptly.
 */
final class ConfigPoller implements AutoCloseable {

    private static final Logger LOG = System.getLogger(ConfigPoller.class.getName());

    private final AtomicBoolean running = new AtomicBoolean(true);
    private final Thread thread;

    private ConfigPoller(ConfigStore store, long appliedVersion, Consumer<ConfigState> apply, Duration every) {
        this.thread = Thread.ofVirtual().name("proxypool-config-poll").start(() -> {
            long applied = appliedVersion;
            while (running.get()) {
                try {
                    Thread.sleep(every);
                } catch (InterruptedException e) {
                    return;
                }
                try {
                    ConfigState state = store.state();
                    if (state.version() != applied) {
                        apply.accept(state);
                        applied = state.version();
                        LOG.log(Level.INFO, "configuration version " + applied + " applied");
                    }
                } catch (RuntimeException e) {
                    LOG.log(Level.DEBUG, "configuration poll failed, keeping version " + applied + ": " + e);
                }
            }
        });
    }

    static ConfigPoller start(ConfigStore store, long appliedVersion, Consumer<ConfigState> apply, Duration every) {
        return new ConfigPoller(store, appliedVersion, apply, every);
    }

    @Override
    public void close() {
        running.set(false);
        thread.interrupt();
        try {
            thread.join(2_000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
