package dev.proxypool.sdk.validate;

/**
 * The validator could not call its echo endpoint directly, so it cannot know its own addresses and
 * must not validate anything (it would accept transparent proxies). The message says why, without secrets.
 */
public final class EchoUnavailableException extends Exception {

    public EchoUnavailableException(String message) {
        super(message);
    }
}
