package dev.proxypool.server.assembly;

import dev.proxypool.core.task.BackgroundTasks;
import dev.proxypool.server.persistence.ConfigState;
import dev.proxypool.server.persistence.ConfigStore;
import java.lang.System.Logger;
import java.lang.System.Logger.Level;
import java.time.Duration;
import java.util.function.Consumer;

/**
 * Follows the configuration store's version: when another process (a control plane sharing the
 * PostgreSQL configuration) changed it, the new state is applied here. A failed read — the database
 * is down — keeps the last applied configuration and tries again next interval. One background task
 * ({@link BackgroundTasks}, thread {@code proxypool-config-poll}); {@link #close()} stops it promptly.
 */
public final class ConfigPoller implements AutoCloseable {

    private static final Logger LOG = System.getLogger(ConfigPoller.class.getName());

    private final BackgroundTasks tasks = BackgroundTasks.of("configuration poller");
    private final ConfigStore store;
    private final Consumer<ConfigState> apply;
    private long applied; // the poll thread's only

    private ConfigPoller(ConfigStore store, long appliedVersion, Consumer<ConfigState> apply) {
        this.store = store;
        this.apply = apply;
        this.applied = appliedVersion;
    }

    public static ConfigPoller start(
            ConfigStore store, long appliedVersion, Consumer<ConfigState> apply, Duration every) {
        ConfigPoller p = new ConfigPoller(store, appliedVersion, apply);
        p.tasks.every("proxypool-config-poll", every, p::pollOnce);
        return p;
    }

    private void pollOnce() {
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

    @Override
    public void close() {
        tasks.close();
    }
}
