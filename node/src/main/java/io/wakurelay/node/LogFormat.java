package io.wakurelay.node;

import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.encoder.JsonEncoder;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.Appender;
import ch.qos.logback.core.OutputStreamAppender;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.Iterator;
import java.util.Locale;

/**
 * The log line format, as nwaku's {@code --log-format}: {@code TEXT} (logback.xml's one line per event) or
 * {@code JSON} (one JSON object per line, logback's own {@link JsonEncoder}, for log shippers).
 */
public enum LogFormat {
    TEXT, JSON;

    /** @throws IllegalArgumentException for anything but TEXT or JSON (any case) */
    public static LogFormat parse(String text) {
        try {
            return valueOf(text.trim().toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("a log format is TEXT or JSON, was '" + text + "'");
        }
    }

    /** Puts this format on the root logger's console appenders (a no-op for TEXT, or when logback is not the backend). */
    public void apply() {
        if (LoggerFactory.getILoggerFactory() instanceof LoggerContext context) {
            applyTo(context);
        }
    }

    void applyTo(LoggerContext context) {
        if (this == TEXT) {
            return;
        }
        ch.qos.logback.classic.Logger root = context.getLogger(Logger.ROOT_LOGGER_NAME);
        for (Iterator<Appender<ILoggingEvent>> it = root.iteratorForAppenders(); it.hasNext(); ) {
            if (it.next() instanceof OutputStreamAppender<ILoggingEvent> appender) {
                JsonEncoder encoder = new JsonEncoder();
                encoder.setContext(context);
                // the message as read, not its template and arguments apart; the context (name, birth) says nothing
                encoder.setWithFormattedMessage(true);
                encoder.setWithMessage(false);
                encoder.setWithArguments(false);
                encoder.setWithContext(false);
                encoder.start();
                // set at start-up, before the node has threads that log
                appender.setEncoder(encoder);
            }
        }
    }
}
