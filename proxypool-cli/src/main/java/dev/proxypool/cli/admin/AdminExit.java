package dev.proxypool.cli.admin;

/**
 * Exit codes of {@code proxypool admin} (the same numbers as {@code dev.proxypool.cli.Main}).
 * A server answer maps as: 2xx ok; {@code 400 invalid_request} is the caller's input, so usage (2);
 * every other error answer (401, 404, 409, 422, 5xx) and an unreachable server is an error (1).
 */
final class AdminExit {

    static final int OK = 0;
    static final int ERROR = 1;
    static final int USAGE = 2;

    private AdminExit() {}

    /** The exit code of a non-2xx HTTP status. */
    static int ofStatus(int status) {
        return status == 400 ? USAGE : ERROR;
    }
}
