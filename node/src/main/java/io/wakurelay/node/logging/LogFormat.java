package io.wakurelay.node.logging;

import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.Appender;
import ch.qos.logback.core.OutputStreamAppender;
import net.logstash.logback.encoder.LogstashEncoder;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.Iterator;
import java.util.Locale;

/**
 * The log line format, as nwaku's {@code --log-format}: {@code TEXT} (logback.xml's one line per event, structured
 * values after the message as {@code key=value}) or {@code JSON} (one JSON object per line for log shippers, by
 * logstash-logback-encoder: {@code @timestamp}, {@code level}, nwaku's {@code lvl} ({@code NwakuLevel}: {@code INF},
 * {@code WRN}, ...), {@code logger_name}, {@code thread_name}, {@code message}, {@code stack_trace}, and each
 * structured value of the event, such as {@code peer}, {@code topic} or {@code hash}, as a field of its own). ADR 0071.
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
                LogstashEncoder encoder = new LogstashEncoder();
                encoder.setContext(context);
                // the logger context's name and birth time say nothing about an event; the numeric level repeats it
                encoder.setIncludeContext(false);
                encoder.setFieldNames(withoutLevelValue());
                encoder.addProvider(new NwakuLevel()); // queries written for nwaku's logs read "lvl"
                encoder.start();
                // set at start-up, before anything has logged (NodeMain applies the format first)
                appender.setEncoder(encoder);
            }
        }
    }

    private static net.logstash.logback.fieldnames.LogstashFieldNames withoutLevelValue() {
        var names = new net.logstash.logback.fieldnames.LogstashFieldNames();
        names.setLevelValue("[ignore]");
        names.setVersion("[ignore]");
        return names;
    }
}
