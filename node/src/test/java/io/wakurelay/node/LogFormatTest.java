package io.wakurelay.node;

import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.encoder.PatternLayoutEncoder;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.classic.util.LogbackMDCAdapter;
import ch.qos.logback.core.OutputStreamAppender;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;
import org.slf4j.Logger;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class LogFormatTest {
    /** A logging context of its own, so that the test does not change the JVM's logging. */
    private static ByteArrayOutputStream consoleOf(LoggerContext context) {
        context.setMDCAdapter(new LogbackMDCAdapter());
        context.start();
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        PatternLayoutEncoder text = new PatternLayoutEncoder();
        text.setContext(context);
        text.setPattern("%level %logger - %msg%n");
        text.start();
        OutputStreamAppender<ILoggingEvent> appender = new OutputStreamAppender<>();
        appender.setContext(context);
        appender.setEncoder(text);
        appender.setOutputStream(out);
        appender.start();
        context.getLogger(Logger.ROOT_LOGGER_NAME).addAppender(appender);
        return out;
    }

    @Test
    void jsonPutsEachEventOnOneLineAsAJsonObject() throws Exception {
        LoggerContext context = new LoggerContext();
        ByteArrayOutputStream out = consoleOf(context);

        LogFormat.JSON.applyTo(context);
        context.getLogger("io.wakurelay.test").warn("peer {} said \"hi\"\nand left", "p1");

        String[] lines = out.toString(StandardCharsets.UTF_8).strip().split("\n");
        assertThat(lines).hasSize(1);
        JsonNode event = new ObjectMapper().readTree(lines[0]);
        assertThat(event.get("level").asText()).isEqualTo("WARN");
        assertThat(event.get("loggerName").asText()).isEqualTo("io.wakurelay.test");
        assertThat(event.get("formattedMessage").asText()).isEqualTo("peer p1 said \"hi\"\nand left");
        context.stop();
    }

    @Test
    void textKeepsTheConfiguredPattern() {
        LoggerContext context = new LoggerContext();
        ByteArrayOutputStream out = consoleOf(context);

        LogFormat.TEXT.applyTo(context);
        context.getLogger("io.wakurelay.test").info("started");

        assertThat(out.toString(StandardCharsets.UTF_8)).isEqualTo("INFO io.wakurelay.test - started\n");
        context.stop();
    }

    @Test
    void onlyTextAndJsonAreFormats() {
        assertThat(LogFormat.parse(" json ")).isEqualTo(LogFormat.JSON);
        assertThatThrownBy(() -> LogFormat.parse("xml")).hasMessageContaining("TEXT or JSON");
    }
}
