package dev.proxypool.core.rank;

import java.util.regex.Pattern;

/**
 * A named pool built from the same validated candidates under its own policy, e.g. a small
 * high-quality {@code small-hq} for sensitive traffic and a large {@code bulk} one. Profiles rank
 * independently: one proxy may sit in several profiles' pools.
 *
 * @param name   the profile's name: 1-64 letters, digits, {@code . _ -}, starting with a letter or digit
 * @param policy how this profile's pool is built
 */
public record PoolProfile(String name, RankPolicy policy) {

    private static final Pattern NAME = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._-]{0,63}");

    /**
     * Validates the name and the policy's presence.
     *
     * @throws IllegalArgumentException if the name is invalid or the policy null
     */
    public PoolProfile {
        if (name == null || !NAME.matcher(name).matches()) {
            throw new IllegalArgumentException("pool profile name '" + name
                    + "' must be 1-64 letters, digits, '.', '_' or '-', starting with a letter or digit");
        }
        if (policy == null) {
            throw new IllegalArgumentException("pool profile " + name + ": policy is missing");
        }
    }
}
