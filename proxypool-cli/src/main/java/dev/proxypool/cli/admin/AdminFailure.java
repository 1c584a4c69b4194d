package dev.proxypool.cli.admin;

/**
 * Why an admin command stops: a one-line message and the exit code it maps to ({@link AdminExit}).
 * Thrown by the client and the commands, turned into one stderr line by {@link AdminConnection#run}.
 */
final class AdminFailure extends RuntimeException {

    private final int exit;

    AdminFailure(int exit, String message, Throwable cause) {
        super(message, cause);
        this.exit = exit;
    }

    static AdminFailure usage(String message) {
        return new AdminFailure(AdminExit.USAGE, message, null);
    }

    int exit() {
        return exit;
    }
}
