package dev.proxypool.sdk.provider;

import dev.proxypool.core.model.ProxyKey;
import dev.proxypool.core.time.Clocks;
import dev.proxypool.core.time.Ticker;
import dev.proxypool.sdk.credentials.InlineCredentials;
import java.nio.file.Path;
import java.time.InstantSource;
import java.util.Map;
import java.util.function.Predicate;

/**
 * What adapters need from the process, injected so tests control it: environment variables
 * (tokens and passwords are looked up here at each fetch, never copied into adapters or reports),
 * the base directory for relative {@code path} settings, and the clocks.
 *
 * @param env     environment variables; only the names a provider's settings mention are read
 * @param baseDir directory that relative {@code path} settings resolve against
 * @param clock   wall clock, for turning TTLs into {@code expiresAt} and dropping expired records
 * @param ticker  monotonic clock, for fetch durations and deadlines
 * @param inline  where {@code user:pass@} credentials listed in a source are kept, under derived refs
 * @param retired whether the pool will not take a proxy back (it was extracted) or it failed (cooling
 *                or disabled by health, not by an operator): a session gateway mints a fresh session
 *                in its place instead of listing it again
 */
public record ProviderEnvironment(
        Map<String, String> env,
        Path baseDir,
        InstantSource clock,
        Ticker ticker,
        InlineCredentials inline,
        Predicate<ProxyKey> retired) {

    /**
     * Copies the variables and validates.
     *
     * @throws IllegalArgumentException when a component is null
     */
    public ProviderEnvironment {
        if (env == null || baseDir == null || clock == null || ticker == null || inline == null || retired == null) {
            throw new IllegalArgumentException(
                    "provider environment: env, baseDir, clock, ticker, inline and retired are required");
        }
        env = Map.copyOf(env);
    }

    /**
     * An environment without a pool to ask: no proxy counts as retired.
     *
     * @param env     environment variables
     * @param baseDir directory that relative {@code path} settings resolve against
     * @param clock   wall clock
     * @param ticker  monotonic clock
     * @param inline  the store for inline credentials
     */
    public ProviderEnvironment(
            Map<String, String> env, Path baseDir, InstantSource clock, Ticker ticker, InlineCredentials inline) {
        this(env, baseDir, clock, ticker, inline, key -> false);
    }

    /**
     * An environment with its own, fresh store for inline credentials.
     *
     * @param env     environment variables
     * @param baseDir directory that relative {@code path} settings resolve against
     * @param clock   wall clock
     * @param ticker  monotonic clock
     */
    public ProviderEnvironment(Map<String, String> env, Path baseDir, InstantSource clock, Ticker ticker) {
        this(env, baseDir, clock, ticker, new InlineCredentials());
    }

    /**
     * The real process: {@link System#getenv()}, the working directory, the system clocks.
     *
     * @return the process environment
     */
    public static ProviderEnvironment system() {
        return new ProviderEnvironment(
                System.getenv(), Path.of("").toAbsolutePath(), Clocks.wall(), Clocks.monotonic());
    }

    /** Never prints the variables' values. */
    @Override
    public String toString() {
        return "ProviderEnvironment[baseDir=" + baseDir + " env=" + env.size() + " vars]";
    }
}
