package io.wakurelay.node.logging;

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
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class LogFormatTest {
    /** A logging context of its own, so that the test does not change the JVM's logging. */
    private static ByteArrayOutputStream consoleOf(LoggerContext context) {
        return consoleOf(context, "%level %logger - %msg%n");
    }

    private static ByteArrayOutputStream consoleOf(LoggerContext context, String pattern) {
        context.setMDCAdapter(new LogbackMDCAdapter());
        context.start();
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        PatternLayoutEncoder text = new PatternLayoutEncoder();
        text.setContext(context);
        text.setPattern(pattern);
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
    void jsonPutsEachEventOnOneLineAsAJsonObjectWithItsStructuredValuesAsFields() throws Exception {
        LoggerContext context = new LoggerContext();
        ByteArrayOutputStream out = consoleOf(context, "%level %logger - %msg%n");

        LogFormat.JSON.applyTo(context);
        context.getLogger("io.wakurelay.test").warn("peer {} said \"hi\"\nand left", "p1");
        context.getLogger("io.wakurelay.test").atInfo().addKeyValue("peer", "16Uiu2HAm")
                .addKeyValue("topic", "/waku/2/rs/1/0").log("disconnecting relay peer");

        String[] lines = out.toString(StandardCharsets.UTF_8).strip().split("\n");
        assertThat(lines).hasSize(2);
        JsonNode event = new ObjectMapper().readTree(lines[0]);
        assertThat(event.get("level").asText()).isEqualTo("WARN");
        assertThat(event.get("logger_name").asText()).isEqualTo("io.wakurelay.test");
        assertThat(event.get("message").asText()).isEqualTo("peer p1 said \"hi\"\nand left");
        assertThat(event.has("@timestamp")).isTrue();
        assertThat(event.has("level_value")).as("the level once, as text").isFalse();
        // nwaku's level tag beside it (issue 41 item 8): queries written for nwaku's logs read "lvl"
        assertThat(event.get("lvl").asText()).isEqualTo("WRN");
        JsonNode structured = new ObjectMapper().readTree(lines[1]);
        assertThat(structured.get("lvl").asText()).isEqualTo("INF");
        assertThat(structured.get("message").asText()).isEqualTo("disconnecting relay peer");
        assertThat(structured.get("peer").asText()).isEqualTo("16Uiu2HAm");
        assertThat(structured.get("topic").asText()).isEqualTo("/waku/2/rs/1/0");
        context.stop();
    }

    @Test
    void nwakusLevelTagIsChroniclesThreeLetterName() {
        assertThat(java.util.stream.Stream.of(ch.qos.logback.classic.Level.TRACE, ch.qos.logback.classic.Level.DEBUG,
                ch.qos.logback.classic.Level.INFO, ch.qos.logback.classic.Level.WARN, ch.qos.logback.classic.Level.ERROR)
                .map(NwakuLevel::of)).containsExactly("TRC", "DBG", "INF", "WRN", "ERR");
    }

    @Test
    void textWritesStructuredValuesAfterTheMessageAsKeyValuePairs() throws Exception {
        LoggerContext context = new LoggerContext();
        ByteArrayOutputStream out = consoleOf(context, shippedPattern().replace("%d{yyyy-MM-dd'T'HH:mm:ss.SSSXXX} ", ""));

        LogFormat.TEXT.applyTo(context);
        context.getLogger("io.wakurelay.test").atInfo().addKeyValue("peer", "16Uiu2HAm").addKeyValue("reason", "graylisted")
                .log("disconnecting relay peer");
        context.getLogger("io.wakurelay.test").info("no values");

        assertThat(out.toString(StandardCharsets.UTF_8).lines().map(l -> l.replaceFirst("\\[[^]]*\\] ", "")))
                .containsExactly("INFO  io.wakurelay.test - disconnecting relay peer peer=16Uiu2HAm reason=graylisted",
                        "INFO  io.wakurelay.test - no values");
        context.stop();
    }

    /** The pattern logback.xml gives the console, as the node ships it. */
    private static String shippedPattern() throws Exception {
        try (var in = LogFormatTest.class.getResourceAsStream("/logback.xml")) {
            String xml = new String(in.readAllBytes(), StandardCharsets.UTF_8);
            Matcher m = Pattern.compile("<pattern>(.*)</pattern>").matcher(xml);
            assertThat(m.find()).isTrue();
            return m.group(1).replace("&lt;", "<").replace("&gt;", ">").replace("&amp;", "&");
        }
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
