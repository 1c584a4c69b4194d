package dev.proxypool.cli.bench.capacity;

/**
 * What share of a simulated upstream's exchanges fail, and how: {@code refuse} resets the
 * connection before reading anything (a proxy refusing the client), {@code reset} resets it after
 * the request arrived (nothing answered), {@code slow} answers only after {@link #SLOW_EXTRA_MILLIS}
 * more, the body dripping (a proxy that stalls), so the gateway's timeouts, health and retries run.
 */
public record FailureShares(double refuse, double reset, double slow) {

    public static final long SLOW_EXTRA_MILLIS = 5_000;

    public FailureShares {
        check("refuse", refuse);
        check("reset", reset);
        check("slow", slow);
        if (refuse + reset + slow > 1) {
            throw new IllegalArgumentException("failure shares add up to more than 1");
        }
    }

    private static void check(String name, double v) {
        if (!(v >= 0 && v <= 1)) {
            throw new IllegalArgumentException("--" + name + "-share must be in [0, 1], got " + v);
        }
    }

    /** The failure for a draw u in [0, 1). */
    Outcome pick(double u) {
        if (u < refuse) {
            return Outcome.REFUSE;
        }
        if (u < refuse + reset) {
            return Outcome.RESET;
        }
        if (u < refuse + reset + slow) {
            return Outcome.SLOW;
        }
        return Outcome.OK;
    }

    enum Outcome {
        OK,
        REFUSE,
        RESET,
        SLOW
    }
}
