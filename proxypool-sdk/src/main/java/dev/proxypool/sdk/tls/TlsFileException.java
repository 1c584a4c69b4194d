package dev.proxypool.sdk.tls;

import java.nio.file.Path;

/** A PEM file that cannot be used: the message names the file and what is wrong with it. */
public final class TlsFileException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    private final transient Path file;

    /**
     * A problem with {@code file}.
     *
     * @param file    the file
     * @param problem what is wrong, e.g. "does not exist"
     */
    public TlsFileException(Path file, String problem) {
        super(file + " " + problem);
        this.file = file;
    }

    /**
     * The file the problem is with.
     *
     * @return the file
     */
    public Path file() {
        return file;
    }
}
