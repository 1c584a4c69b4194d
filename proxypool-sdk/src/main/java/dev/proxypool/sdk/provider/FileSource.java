package dev.proxypool.sdk.provider;

import dev.proxypool.core.sequential.FetchOutcome;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;

/** A local file, size-capped like any other source (an inventory is input too). */
final class FileSource implements ByteSource {

    private final Path path;
    private final long maxBytes;
    private final ProviderEnvironment env;

    FileSource(Path path, long maxBytes, ProviderEnvironment env) {
        this.path = path;
        this.maxBytes = maxBytes;
        this.env = env;
    }

    @Override
    public Opened open(FetchContext ctx, long deadline) throws FetchFailure {
        String name = String.valueOf(path.getFileName());
        try {
            long size = Files.size(path);
            if (size > maxBytes) {
                throw new FetchFailure(
                        FetchOutcome.ErrorKind.SIZE_LIMIT,
                        "file " + name + " has " + size + " bytes, over maxBytes " + maxBytes);
            }
            InputStream in = Files.newInputStream(path);
            return new Opened(new CappedInputStream(in, maxBytes, env.ticker(), deadline), in);
        } catch (NoSuchFileException e) {
            throw new FetchFailure(FetchOutcome.ErrorKind.NETWORK, "file " + name + " does not exist");
        } catch (IOException e) {
            throw new FetchFailure(
                    FetchOutcome.ErrorKind.NETWORK,
                    "file " + name + " is not readable (" + e.getClass().getSimpleName() + ")");
        }
    }
}
