package dev.proxypool.server.persistence;

/**
 * One admin write, as a function of the current state. A store calls it inside its write
 * transaction, holding the configuration lock, so the state it sees is the one it changes (no lost
 * update between two admins or two processes). Throwing aborts the write: nothing is stored.
 */
@FunctionalInterface
public interface ConfigEdit {

    PendingChange apply(ConfigState current);
}
