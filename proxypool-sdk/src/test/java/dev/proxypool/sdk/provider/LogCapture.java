package dev.proxypool.sdk.provider;

import java.util.ArrayList;
import java.util.List;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import java.util.logging.SimpleFormatter;

/** Captures every JUL record at every level (Helidon's and ours) while a test runs. */
final class LogCapture extends Handler {

    private final List<String> lines = new ArrayList<>();
    private final Logger root = Logger.getLogger("");
    private Level previous;

    static LogCapture start() {
        LogCapture c = new LogCapture();
        c.setFormatter(new SimpleFormatter());
        c.setLevel(Level.ALL);
        c.previous = c.root.getLevel();
        c.root.setLevel(Level.ALL);
        c.root.addHandler(c);
        return c;
    }

    void stop() {
        root.removeHandler(this);
        root.setLevel(previous);
    }

    synchronized String text() {
        return String.join("\n", lines);
    }

    @Override
    public synchronized void publish(LogRecord record) {
        lines.add(getFormatter().format(record));
    }

    @Override
    public void flush() {}

    @Override
    public void close() {}
}
