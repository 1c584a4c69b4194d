package dev.proxypool.sdk.coordination;

import dev.proxypool.core.time.Ticker;
import java.util.ArrayList;
import java.util.List;

/** A {@link SnapshotConsumer} that records every delivery with the ticker reading at arrival. */
final class Recorder implements SnapshotConsumer {

    record Arrival(ReceivedSnapshot snapshot, long atNanos) {}

    private final Ticker ticker;
    private final List<Arrival> arrivals = new ArrayList<>();

    Recorder(Ticker ticker) {
        this.ticker = ticker;
    }

    @Override
    public synchronized void accept(ReceivedSnapshot snapshot) {
        arrivals.add(new Arrival(snapshot, ticker.read()));
    }

    synchronized List<Arrival> arrivals() {
        return List.copyOf(arrivals);
    }

    synchronized List<Long> versions() {
        List<Long> out = new ArrayList<>();
        for (Arrival a : arrivals) {
            out.add(a.snapshot().version());
        }
        return out;
    }

    synchronized long arrivalOf(long version) {
        for (Arrival a : arrivals) {
            if (a.snapshot().version() == version) {
                return a.atNanos();
            }
        }
        return -1;
    }
}
