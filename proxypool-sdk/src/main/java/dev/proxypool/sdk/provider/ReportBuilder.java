package dev.proxypool.sdk.provider;

import dev.proxypool.core.model.Proxy;
import dev.proxypool.core.model.ProxyKey;
import dev.proxypool.core.sequential.FetchOutcome;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.TreeMap;

/**
 * Collects one fetch: maps records, keeps the valid ones (first of each key wins), counts drops by
 * reason, and decides the outcome. A source whose every record was malformed did not parse:
 * that is {@link FetchOutcome.ErrorKind#PARSE}, not Empty (an HTML error page served with 200 must not
 * count as a dry provider).
 */
final class ReportBuilder {

    private final String provider;
    private final String upstream;
    private final CandidateMapper.Bound mapper;
    private final LinkedHashMap<ProxyKey, Proxy> candidates = new LinkedHashMap<>();
    private final TreeMap<String, Integer> drops = new TreeMap<>();
    private final List<DropSample> samples = new ArrayList<>();
    private long records;
    private long malformed;
    private long firstMalformed;

    ReportBuilder(String provider, String upstream, CandidateMapper.Bound mapper) {
        this.provider = provider;
        this.upstream = upstream;
        this.mapper = mapper;
    }

    /** A readable record at {@code position}: kept, or dropped with the first rule it breaks. */
    void record(long position, RawRecord r) {
        records++;
        Proxy p;
        try {
            p = mapper.map(r);
        } catch (Drop d) {
            drop(position, d.reason());
            return;
        }
        if (candidates.putIfAbsent(p.key(), p) != null) {
            drop(position, DropReason.DUPLICATE);
        }
    }

    /** A line or element that could not be read as a record at all. */
    void malformed(long position) {
        records++;
        malformed++;
        if (firstMalformed == 0) {
            firstMalformed = position;
        }
        drop(position, DropReason.MALFORMED_RECORD);
    }

    private void drop(long position, DropReason reason) {
        drops.merge(reason.code(), 1, Integer::sum);
        if (samples.size() < FetchReport.MAX_SAMPLES) {
            samples.add(new DropSample(position, reason.code()));
        }
    }

    /** A readable record rejected before mapping, e.g. for inline credentials. */
    void rejected(long position, DropReason reason) {
        records++;
        drop(position, reason);
    }

    FetchReport finish(long bytesRead, Duration duration) {
        if (records > 0 && malformed == records) {
            return failure(
                    FetchOutcome.ErrorKind.PARSE,
                    "no record could be read (" + malformed + " malformed, first at " + firstMalformed + ")",
                    bytesRead,
                    duration);
        }
        List<Proxy> list = List.copyOf(candidates.values());
        FetchOutcome outcome = list.isEmpty() ? FetchOutcome.EMPTY : new FetchOutcome.Success(list.size());
        return new FetchReport(provider, upstream, outcome, list, drops, samples, bytesRead, duration);
    }

    /** A failed fetch; drops seen before the failure stay in the report for diagnostics. */
    FetchReport failure(FetchOutcome.ErrorKind kind, String detail, long bytesRead, Duration duration) {
        return new FetchReport(
                provider,
                upstream,
                new FetchOutcome.Error(kind, detail),
                List.of(),
                drops,
                samples,
                bytesRead,
                duration);
    }
}
