package io.wakurelay.node.logging;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.spi.ILoggingEvent;
import com.fasterxml.jackson.core.JsonGenerator;
import net.logstash.logback.composite.AbstractFieldJsonProvider;
import net.logstash.logback.composite.JsonWritingUtils;

import java.io.IOException;

/**
 * nwaku's level tag in JSON log lines: {@code "lvl"} with chronicles' three-letter names ({@code TRC}, {@code DBG},
 * {@code INF}, {@code WRN}, {@code ERR}), written beside logstash's {@code level}, so that queries written for nwaku's
 * logs ({@code lvl == "ERR"}) find ours. chronicles' {@code NTC} and {@code FTL} have no level of their own here
 * (nwaku's NOTICE is our INFO, FATAL our ERROR: {@code LogLevels}), so they never appear.
 */
final class NwakuLevel extends AbstractFieldJsonProvider<ILoggingEvent> {
    static final String FIELD = "lvl";

    NwakuLevel() {
        setFieldName(FIELD);
    }

    /** chronicles' name of a logback level. */
    static String of(Level level) {
        return switch (level.toInt()) {
            case Level.TRACE_INT -> "TRC";
            case Level.DEBUG_INT -> "DBG";
            case Level.INFO_INT -> "INF";
            case Level.WARN_INT -> "WRN";
            case Level.ERROR_INT -> "ERR";
            default -> level.toString();
        };
    }

    @Override
    public void writeTo(JsonGenerator generator, ILoggingEvent event) throws IOException {
        JsonWritingUtils.writeStringField(generator, getFieldName(), of(event.getLevel()));
    }
}
