package dev.proxypool.sdk.provider;

import dev.proxypool.core.sequential.FetchOutcome;
import dev.proxypool.core.time.Ticker;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.time.Duration;

/**
 * The fetch skeleton every adapter shares: open the source, let the format parse records into a
 * {@link ReportBuilder}, and turn every failure into a report. Which limit fired is read from the
 * {@link CappedInputStream} itself, because parsers wrap I/O errors in their own exceptions.
 */
final class SourceFetch {

    /** Reads records of one format from the stream into the builder. */
    @FunctionalInterface
    interface Format {
        void parse(InputStream in, ReportBuilder out) throws IOException, FetchFailure;
    }

    private final ProviderConfig config;
    private final ProviderEnvironment env;
    private final ByteSource source;
    private final CandidateMapper mapper;
    private final Format format;

    SourceFetch(
            ProviderConfig config, ProviderEnvironment env, ByteSource source, CandidateMapper mapper, Format format) {
        this.config = config;
        this.env = env;
        this.source = source;
        this.mapper = mapper;
        this.format = format;
    }

    /** The byte source a provider's settings name: exactly one of {@code path} and {@code url}. */
    static ByteSource source(Settings settings, ProviderEnvironment env, boolean fileAllowed) {
        long maxBytes = settings.bytes("maxBytes", Settings.DEFAULT_MAX_BYTES);
        boolean hasPath = settings.get("path").isPresent();
        boolean hasUrl = settings.get("url").isPresent();
        if (hasPath == hasUrl || (hasPath && !fileAllowed)) {
            throw new IllegalArgumentException(
                    fileAllowed
                            ? settings.key("path") + " or " + settings.key("url") + ": set exactly one"
                            : settings.key("url") + " is required");
        }
        if (hasUrl) {
            return new HttpSource(settings, maxBytes, env);
        }
        for (String remoteOnly : Settings.REMOTE) {
            if (settings.get(remoteOnly).isPresent()) {
                throw new IllegalArgumentException(settings.key(remoteOnly) + " applies only to url sources");
            }
        }
        settings.get("timeout").ifPresent(t -> {
            throw new IllegalArgumentException(settings.key("timeout") + " applies only to url sources");
        });
        Path path = env.baseDir().resolve(settings.require("path"));
        return new FileSource(path, maxBytes, env);
    }

    FetchReport fetch(FetchContext ctx) {
        Ticker ticker = env.ticker();
        long start = ticker.read();
        long deadline = start + ctx.timeout().toNanos();
        CandidateMapper.Bound bound;
        try {
            bound = mapper.bind(ctx, env.clock().instant());
        } catch (FetchFailure f) {
            return FetchReport.failed(config.name(), ctx.upstream(), f.kind(), f.getMessage(), since(start));
        }
        ReportBuilder out = new ReportBuilder(config.name(), ctx.upstream(), bound);
        ByteSource.Opened opened = null;
        try {
            opened = source.open(ctx, deadline);
            format.parse(opened.stream(), out);
            return out.finish(opened.stream().count(), since(start));
        } catch (FetchFailure f) {
            return out.failure(f.kind(), f.getMessage(), bytes(opened), since(start));
        } catch (IOException | UncheckedIOException e) {
            FetchFailure f = limitFired(opened);
            f = f != null ? f : FetchFailures.network(e);
            return out.failure(f.kind(), f.getMessage(), bytes(opened), since(start));
        } catch (RuntimeException e) {
            FetchFailure f = limitFired(opened);
            FetchOutcome.ErrorKind kind = f != null ? f.kind() : FetchOutcome.ErrorKind.PARSE;
            String detail = f != null
                    ? f.getMessage()
                    : "unreadable answer (" + e.getClass().getSimpleName() + ")";
            return out.failure(kind, detail, bytes(opened), since(start));
        } finally {
            if (opened != null) {
                opened.close();
            }
        }
    }

    private FetchFailure limitFired(ByteSource.Opened opened) {
        if (opened == null) {
            return null;
        }
        if (opened.stream().overCap()) {
            return new FetchFailure(
                    FetchOutcome.ErrorKind.SIZE_LIMIT,
                    "answer is over maxBytes; stopped reading at "
                            + opened.stream().count() + " bytes");
        }
        if (opened.stream().pastDeadline()) {
            return new FetchFailure(FetchOutcome.ErrorKind.TIMEOUT, "fetch deadline passed while reading");
        }
        return null;
    }

    private static long bytes(ByteSource.Opened opened) {
        return opened == null ? 0 : opened.stream().count();
    }

    private Duration since(long start) {
        return Duration.ofNanos(Math.max(0, env.ticker().read() - start));
    }
}
