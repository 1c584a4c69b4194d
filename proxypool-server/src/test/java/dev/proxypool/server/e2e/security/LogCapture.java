package dev.proxypool.server.e2e.security;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import java.util.logging.SimpleFormatter;

/**
 * Every java.util.logging record (System.Logger, Helidon and slf4j-jdk14 all end up here) while
 * installed, kept as text: logger, formatted message, raw message, parameters and stack trace.
 */
public final class LogCapture extends Handler implements AutoCloseable {

    /** One captured record as text, with a short label saying which record it was. */
    public record Line(String where, String text) {
        /** Whether this record is at {@code level} from logger {@code logger}. */
        public boolean is(String level, String logger) {
            return where.endsWith("(" + level + " " + logger + ")");
        }
    }

    private final ConcurrentLinkedQueue<Line> lines = new ConcurrentLinkedQueue<>();
    private final SimpleFormatter formatter = new SimpleFormatter();
    private final Logger root = Logger.getLogger("");
    private final Level previous;
    private long seq;

    private LogCapture() {
        previous = root.getLevel();
        setLevel(Level.ALL);
        root.setLevel(Level.ALL);
        root.addHandler(this);
    }

    public static LogCapture install() {
        return new LogCapture();
    }

    @Override
    public void publish(LogRecord r) {
        StringBuilder b = new StringBuilder();
        String formatted;
        try {
            formatted = formatter.formatMessage(r);
        } catch (RuntimeException e) {
            formatted = "<unformattable: " + e + ">";
        }
        b.append(r.getLevel())
                .append(' ')
                .append(r.getLoggerName())
                .append(": ")
                .append(formatted)
                .append('\n')
                .append(r.getMessage());
        if (r.getParameters() != null) {
            b.append('\n').append(Arrays.deepToString(r.getParameters()));
        }
        if (r.getThrown() != null) {
            StringWriter sw = new StringWriter();
            r.getThrown().printStackTrace(new PrintWriter(sw));
            b.append('\n').append(sw);
        }
        long n;
        synchronized (this) {
            n = ++seq;
        }
        lines.add(new Line("log record #" + n + " (" + r.getLevel() + " " + r.getLoggerName() + ")", b.toString()));
    }

    public List<Line> lines() {
        return new ArrayList<>(lines);
    }

    @Override
    public void flush() {}

    @Override
    public void close() {
        root.removeHandler(this);
        root.setLevel(previous);
    }
}
