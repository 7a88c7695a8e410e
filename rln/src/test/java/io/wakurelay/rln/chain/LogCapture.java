package io.wakurelay.rln.chain;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import java.util.List;
import org.slf4j.LoggerFactory;

/**
 * The log lines of this package (io.wakurelay.rln.chain) while it is open, as "LEVEL message key=value ...": the
 * event's key-value pairs after the message, as logback.xml's text lines print them.
 */
final class LogCapture implements AutoCloseable {
    private final Logger logger = (Logger) LoggerFactory.getLogger("io.wakurelay.rln.chain");
    private final ListAppender<ILoggingEvent> appender = new ListAppender<>();
    private final Level before = logger.getLevel();

    LogCapture() {
        appender.start();
        logger.addAppender(appender);
        logger.setLevel(Level.INFO);
    }

    /** The lines logged so far at INFO or above, oldest first. */
    List<String> lines() {
        synchronized (appender.list) {
            return appender.list.stream().map(LogCapture::line).toList();
        }
    }

    private static String line(ILoggingEvent e) {
        StringBuilder line = new StringBuilder().append(e.getLevel()).append(' ').append(e.getFormattedMessage());
        if (e.getKeyValuePairs() != null) {
            e.getKeyValuePairs().forEach(pair -> line.append(' ').append(pair.key).append('=').append(pair.value));
        }
        return line.toString();
    }

    /** The lines at {@code level} that contain {@code text}. */
    List<String> lines(Level level, String text) {
        return lines().stream().filter(l -> l.startsWith(level + " ") && l.contains(text)).toList();
    }

    @Override
    public void close() {
        logger.detachAppender(appender);
        logger.setLevel(before);
    }
}
